import { ApplicationFailure, condition, isCancellation, TemporalFailure, workflowInfo } from '@temporalio/workflow';
import { workerChecks } from './worker-checks';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import {
  type AttentionAction,
  type AttentionKind,
  type AttentionRequest,
  attentionSignedFields,
} from '../protocol/attention-types';
import type { AgentState } from './agent-state';
import { describeFailure, failureType } from './failures';
import type { StatusPublisher } from './status-publisher';

/** The failure of a model step or a tool call, as the wait records it. */
export interface FailureToDecide {
  kind: AttentionKind;
  step: number;
  error: unknown;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
}

/** What was decided for a failure: the action, who chose it, and the request as recorded. */
export interface AttentionOutcome {
  action: AttentionAction;
  by: string;
  reason?: string;
  request: AttentionRequest;
}

/**
 * Holds a model step or a tool call that failed for a person, in runs whose agent has
 * `onFailure: 'wait'`: records the failure, says so in the event log and the status
 * (`needs-attention`), and waits for `resolveAttention` (retry, fail or skip) or the agent's
 * `attentionTimeout`, after which the run fails with the original error. An interrupt or a
 * cancellation closes the request and goes through.
 */
export class AttentionWait {
  constructor(
    private readonly state: AgentState,
    private readonly status: StatusPublisher,
    private readonly spec: DescribedAgentSpec,
  ) {}

  /** True when the agent waits for a person instead of failing. */
  get enabled(): boolean {
    return this.spec.onFailure !== undefined;
  }

  /** Records `failure` and waits until someone decides it. */
  async decide(failure: FailureToDecide): Promise<AttentionOutcome> {
    const { state, status, spec } = this;
    const book = state.attention;
    const { error, ...where } = failure;
    const recorded = {
      ...where,
      workflowId: workflowInfo().workflowId,
      agent: spec.name,
      errorType: errorTypeOf(error),
      message: describeFailure(error),
    };
    const attentionId = book.nextId(failure.step);
    const signature =
      spec.signsApprovals === true
        ? await workerChecks.signAttention(attentionSignedFields({ ...recorded, attentionId }))
        : undefined;
    const request = book.open({ ...recorded, ...(signature ? { signature } : {}) }, attentionId, now());
    state.events.emit({
      type: 'attention-needed',
      attentionId,
      kind: request.kind,
      step: request.step,
      ...(request.toolCallId ? { toolCallId: request.toolCallId, toolName: request.toolName } : {}),
      errorType: request.errorType,
      message: request.message,
    });
    status.publishWaiting();
    const timeout = spec.onFailure?.timeout;
    const decided = () => request.status !== 'waiting';
    let decidedInTime = true;
    try {
      if (timeout) decidedInTime = await condition(decided, timeout);
      else await condition(decided);
    } catch (cancelled) {
      if (isCancellation(cancelled)) book.cancel(attentionId);
      throw cancelled;
    }
    if (!decidedInTime) book.timeOut(attentionId, now(), timeout ?? '');
    const resolution = request.resolution ?? { action: 'fail' as const, by: 'cadre', at: now() };
    state.events.emit({
      type: 'attention-resolved',
      attentionId,
      action: resolution.action,
      by: resolution.by,
      ...(resolution.reason ? { reason: resolution.reason } : {}),
    });
    status.publishWaiting();
    return {
      action: resolution.action,
      by: resolution.by,
      ...(resolution.reason ? { reason: resolution.reason } : {}),
      request,
    };
  }
}

/** The failure's type: Cadre's catalogued one, else the innermost failure's (`TimeoutFailure`, an application failure's type). */
function errorTypeOf(error: unknown): string {
  const catalogued = failureType(error);
  if (catalogued) return catalogued;
  let current: unknown = error;
  let type: string | undefined;
  while (current instanceof TemporalFailure) {
    type = current instanceof ApplicationFailure && current.type ? current.type : current.name;
    current = current.cause;
  }
  return type ?? (error instanceof Error ? error.name : 'Error');
}

function now(): string {
  return new Date().toISOString();
}
