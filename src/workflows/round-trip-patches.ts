/**
 * Patch ids (Temporal's `patched()`) of the changes that saved round trips: runs recorded
 * before them replay as they were recorded, new runs take the cheaper path.
 */
export const roundTripPatches = {
  /** A parent passes each child its spec in the start input: the child runs no `describeAgent` activity. */
  subagentSpecFromParent: 'cadre-subagent-spec-from-parent',
  /** Approval verification runs in the workflow when there is nothing to verify, else as a local activity. */
  localApprovalVerification: 'cadre-local-approval-verification',
  /**
   * A task-mode run's last model step (no tool calls) writes the run's end itself: its message and
   * the `text` and `run-finished` events. The run then ends with no `commitConversation` activity.
   */
  finalStepWritesRunEnd: 'cadre-final-step-writes-run-end',
  /**
   * A parent starts its children with `CadreStatus` `running`, and a run upserts its status only
   * when it differs from the search attributes it started with (children, continue-as-new).
   */
  statusFromStart: 'cadre-status-from-start',
  /**
   * A human approval no longer publishes the run's status in the workflow task that schedules the
   * approved tool (the activity would wait behind the search attribute upsert): the status follows
   * when the tool's result arrives, or when `runTool` signals that the tool is still running.
   */
  approvedToolStatusDeferred: 'cadre-approved-tool-status-deferred',
  /**
   * A parent starts its children as `subagentWorkflow`, which records no patch marker (and so no
   * `TemporalChangeVersion` upsert): its type stands for the baseline.
   */
  subagentWorkflowType: 'cadre-subagent-workflow-type',
  /**
   * A step whose calls all run as tool activities (no human approval, no runtime tool, subagent or
   * client-side tool) awaits their activities directly, instead of through a chain of async calls
   * per tool. Fewer promises cost the sandbox fewer stack traces; continuations settle in fewer
   * microtask hops, which can change the order of commands within one workflow task. Only runs
   * that recorded a baseline listing it take this path (see `baselineHas`): it records no marker.
   */
  flatToolCalls: 'cadre-flat-tool-calls',
  /**
   * One marker for every patch before it (see `patch-baseline.ts`): a run that records it takes
   * them all as present without a marker (and a `TemporalChangeVersion` upsert) for each.
   * `baseline` is the one new runs record; `baselineV2` is the one runs recorded before
   * `flatToolCalls`, and `baselineV1` the one runs recorded before `approvedToolStatusDeferred`.
   */
  baseline: 'cadre-patch-baseline-3',
  baselineV2: 'cadre-patch-baseline-2',
  baselineV1: 'cadre-patch-baseline-1',
} as const;
