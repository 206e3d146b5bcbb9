import type { AgentRunResult, AgentWorkflowInput } from '../protocol/definitions';
import { runAgent } from './agent-workflow';
import { assumePatchBaseline } from './patch-baseline';

/**
 * A subagent run (workflow type `subagentWorkflow`): the same workflow as `agentWorkflow`, started
 * by a parent. It records no patch marker, and so costs the server no `TemporalChangeVersion`
 * upsert: only code with the current patch baseline starts this type (`assumePatchBaseline`).
 */
export function subagentWorkflow(input: AgentWorkflowInput): Promise<AgentRunResult> {
  return runAgent(input, assumePatchBaseline);
}
