import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { AgentState } from './agent-state';
import type { AgentStatus } from '../protocol/definitions';
import { agentNameKey, agentStatusKey, pendingApprovalsKey } from '../protocol/search-attributes';

/**
 * Shows the run's status in Temporal UI: current details always, and the `CadreStatus`
 * search attribute when the run was started with Cadre's search attributes (servers
 * without them registered, such as the time-skipping test server, get details only).
 */
export class StatusPublisher {
  readonly searchAttributesEnabled = workflowInfo().typedSearchAttributes.get(agentNameKey) !== undefined;
  private published?: AgentStatus;
  private publishedPending = 0;

  constructor(private readonly state: AgentState) {}

  /** Sets the status, with a line of detail for the UI. */
  publish(status: AgentStatus, detail?: string): void {
    this.state.setStatus(status);
    const state = this.state;
    const pending = state.approvals.pending().length;
    setCurrentDetails(
      [`**${status}**`, `steps: ${state.steps}`, `messages: ${state.conversation.length}`, detail]
        .filter(Boolean)
        .join(' · '),
    );
    if (this.searchAttributesEnabled && (this.published !== status || this.publishedPending !== pending)) {
      upsertSearchAttributes([
        { key: agentStatusKey, value: status },
        { key: pendingApprovalsKey, value: pending },
      ]);
      this.published = status;
      this.publishedPending = pending;
    }
  }
}
