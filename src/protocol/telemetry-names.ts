/** Names of the spans Cadre's workflow emits, which the worker also turns into metrics. */
export const workflowSpanNames = {
  /** From an approval request to its decision (or its cancellation). */
  approvalWait: 'approval wait',
  /** A zero-length mark at the end of a run, with its status and stop reason. */
  runFinished: 'agent run finished',
} as const;

/** Attribute keys Cadre sets on its spans, beside the OpenTelemetry GenAI ones. */
export const cadreAttributes = {
  agent: 'cadre.agent',
  step: 'cadre.step',
  attempt: 'cadre.attempt',
  outcome: 'cadre.outcome',
  /** True on a local model step or tool call that outlived the hand-off window (it ran on in its process). */
  handedOff: 'cadre.handed_off',
  /**
   * True on a local model step or tool call that did not run: the worker's workflow task slots were
   * short, and the call ran as an activity on the run's queue, under a span of its own.
   */
  leftToQueue: 'cadre.left_to_queue',
  modelRoute: 'cadre.model.route',
  approvalId: 'cadre.approval.id',
  decidedBy: 'cadre.approval.decided_by',
  runStatus: 'cadre.run.status',
  stopReason: 'cadre.stop_reason',
  subagent: 'cadre.subagent.agent',
  subagentMode: 'cadre.subagent.mode',
  childWorkflowId: 'cadre.subagent.workflow_id',
} as const;
