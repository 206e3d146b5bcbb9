/** A tool call a subagent made, as the chat page shows it inside the subagent's progress. */
export interface SubagentToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  state: 'running' | 'awaiting-approval' | 'done' | 'error' | 'denied';
  /** A preview of the output, once there is one. */
  output?: string;
}

/**
 * What a subagent tool call streams as its (preliminary) output: the child's status, its text
 * so far, its tool calls and its own subagents. The final output adds `modelOutput`, exactly
 * what the parent model received (the child's text, or what `toModelOutput` made of it).
 */
export interface SubagentProgress {
  type: 'cadre-subagent';
  workflowId: string;
  agent: string;
  task: string;
  status: 'running' | 'awaiting-approval' | 'completed' | 'failed' | 'cancelled' | string;
  text: string;
  toolCalls: SubagentToolCall[];
  subagents: SubagentProgress[];
  modelOutput?: string;
}

/** A new, running subagent's progress. */
export function startedProgress(workflowId: string, agent: string, task: string): SubagentProgress {
  return { type: 'cadre-subagent', workflowId, agent, task, status: 'running', text: '', toolCalls: [], subagents: [] };
}

/** A deep copy, so each chunk carries the state of its moment. */
export function snapshotProgress(progress: SubagentProgress): SubagentProgress {
  return JSON.parse(JSON.stringify(progress)) as SubagentProgress;
}
