import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { AgentSpec } from '../agents/agent-definition';
import type { AgentState } from './agent-state';
import type { AgentStatus, AgentWorkflowInput } from '../protocol/definitions';
import {
  agentNameKey,
  agentStatusKey,
  initialSearchAttributes,
  pendingApprovalsKey,
} from '../protocol/search-attributes';
import { runBuildLine } from './run-build';
import { describeAttention } from '../protocol/attention-types';
import { oneLine } from '../protocol/text-preview';

/**
 * Shows the run's status in Temporal UI: current details always, and Cadre's search attributes
 * (`CadreStatus`, `CadrePendingApprovals`) when the run was started with them, or when the
 * worker found them registered in the namespace (a client in another language need not set
 * them). Servers without them, such as the time-skipping test server, get details only.
 */
export class StatusPublisher {
  private startedWithAttributes = workflowInfo().typedSearchAttributes.get(agentNameKey) !== undefined;
  private registered = false;
  private published?: AgentStatus;
  private publishedPending = 0;
  /** Tool call ids of approved calls whose tool runs while the run holds back its status (see {@link holdBack}). */
  private readonly unpublishedApprovals: string[] = [];
  private spec?: AgentSpec;

  constructor(
    private readonly state: AgentState,
    private readonly input: AgentWorkflowInput,
  ) {
    // What the run started with is published already: a child its parent started `running`, a continued run its last status.
    if (!this.startedWithAttributes) return;
    const attributes = workflowInfo().typedSearchAttributes;
    this.published = attributes.get(agentStatusKey) as AgentStatus | undefined;
    this.publishedPending = attributes.get(pendingApprovalsKey) ?? 0;
  }

  /** True when the run's search attributes are kept up to date (children get theirs at start too). */
  get searchAttributesEnabled(): boolean {
    return this.startedWithAttributes || this.registered;
  }

  /** Learns from the agent's spec whether the namespace has Cadre's search attributes registered. */
  useSpec(spec: AgentSpec): void {
    this.registered = spec.searchAttributes === true;
    this.spec = spec;
  }

  /** Sets the status, with a line of detail for the UI. */
  publish(status: AgentStatus, detail?: string): void {
    this.state.setStatus(status);
    const state = this.state;
    const pending = state.approvals.pending().length;
    setCurrentDetails(
      [
        `**${status}**`,
        `steps: ${state.steps}`,
        `messages: ${state.conversation.length}`,
        detail,
        runBuildLine(this.spec),
      ]
        .filter(Boolean)
        .join(' · '),
    );
    if (!this.searchAttributesEnabled || (this.published === status && this.publishedPending === pending)) return;
    const current = [
      { key: agentStatusKey, value: status },
      { key: pendingApprovalsKey, value: pending },
    ];
    // Started without them: the agent, depth and tree are published once, with the first status.
    const identity = this.startedWithAttributes
      ? []
      : initialSearchAttributes(
          this.input.agent,
          this.input.depth ?? 0,
          this.input.rootWorkflowId ?? workflowInfo().workflowId,
        ).filter((attribute) => attribute.key !== agentStatusKey && attribute.key !== pendingApprovalsKey);
    upsertSearchAttributes([...identity, ...current]);
    this.startedWithAttributes = true;
    this.published = status;
    this.publishedPending = pending;
  }

  /**
   * Shows `needs-attention` while a failure waits for a person, `awaiting-approval` while any
   * request of the run is pending, `awaiting-tool-result` while a client-side call waits, `running` otherwise.
   */
  publishWaiting(): void {
    const failures = this.state.attention.waiting();
    if (failures.length > 0) {
      this.publish(
        'needs-attention',
        `needs attention: ${failures.map((request) => `${describeAttention(request)} failed: ${oneLine(request.message, 160)} [${request.attentionId}]`).join('; ')}`,
      );
      return;
    }
    const pending = this.state.approvals.pending();
    if (pending.length > 0) {
      this.publish(
        'awaiting-approval',
        `waiting for a human: ${pending.map((request) => `${request.toolName} [${request.approvalId}]`).join(', ')}`,
      );
      return;
    }
    const awaited = this.state.awaitedCalls.pending();
    if (awaited.length > 0) {
      this.publish(
        'awaiting-tool-result',
        `waiting for a client: ${awaited.map((call) => `${call.toolName} [${call.toolCallId}]`).join(', ')}`,
      );
      return;
    }
    this.publish('running');
  }

  /**
   * Lets the status follow a human's decision: at once, except an approval's. The workflow task
   * that schedules the approved tool then carries no search attribute upsert, so the tool's
   * activity does not wait behind it. True when the status is held back.
   */
  followDecision(approved: boolean): boolean {
    if (!approved) this.publishWaiting();
    return approved;
  }

  /** Holds the status back while the approved call's tool starts (see {@link publishHeldBack}). */
  holdBack(toolCallId: string): void {
    this.unpublishedApprovals.push(toolCallId);
  }

  /**
   * Publishes the status held back for an approved call, once: when its tool's result arrives, or
   * when `runTool` signals that the tool is still running (`approvedToolRunning`). Any other call is ignored.
   */
  publishHeldBack(toolCallId: string): void {
    const index = this.unpublishedApprovals.indexOf(toolCallId);
    if (index < 0) return;
    this.unpublishedApprovals.splice(index, 1);
    this.publishWaiting();
  }
}
