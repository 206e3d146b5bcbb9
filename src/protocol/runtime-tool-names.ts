/** Tools the workflow itself answers (no activity): background jobs, messages to subagents, model routes. */
export const runtimeToolNames = {
  jobOutput: 'job_output',
  jobKill: 'job_kill',
  sendMessage: 'send_message',
  listSubagentModels: 'list_subagent_models',
} as const;
