/**
 * Id of a run's conversation in the store: its workflow id and the first run id of its execution
 * chain, so continue-as-new, a workflow retry and a reset keep the conversation, and a new
 * workflow under a reused id starts another. The workflow names it; a client that has not yet
 * heard from the workflow derives the same id from `describe()`.
 */
export function conversationIdOf(workflowId: string, firstRunId: string): string {
  return `${workflowId}@${firstRunId}`;
}
