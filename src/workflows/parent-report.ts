import { getExternalWorkflowHandle, workflowInfo } from '@temporalio/workflow';
import type { AgentState } from './agent-state';
import { type AgentWorkflowInput, subagentSettledSignal } from '../protocol/definitions';

/**
 * A background or continuable subagent's reports to its parent: one signal per settled
 * activation, addressed to the parent's workflow id so they reach it across its continue-as-new.
 */
export class ParentReport {
  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly state: AgentState,
  ) {}

  /** True when the run reports to a parent (background and continuable children). */
  get enabled(): boolean {
    return this.input.reportTo !== undefined;
  }

  /** Tells the parent that the last activation settled; `closed` when this run ends. */
  async settled(closed: boolean, error?: string): Promise<void> {
    if (!this.input.reportTo) return;
    const state = this.state;
    await getExternalWorkflowHandle(this.input.reportTo)
      .signal(subagentSettledSignal, {
        childWorkflowId: workflowInfo().workflowId,
        activation: state.activations,
        stopReason: state.closeReason ?? state.lastStopReason ?? 'completed',
        text: state.lastText,
        ...(error ? { error } : {}),
        closed,
      })
      // A parent that has already finished no longer listens; nothing is waiting for this report.
      .catch(() => undefined);
  }
}
