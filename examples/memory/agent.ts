import { defineAgent } from '../../src/agents/define-agent';

/**
 * An assistant that remembers each user's preferences across sessions, in its own memory scope
 * per user: two users never see each other's notes. The user comes from the run's runtime
 * context (`--context '{"userId":"ada"}'` at the command line; your backend sets it per request).
 */
export const memoryAgent = defineAgent({
  name: 'memory',
  description: 'Remembers what each user tells it, across conversations.',
  instructions:
    'You are a personal assistant with a memory. Check your memory before answering, and save what the user asks you to remember, or preferences worth keeping.',
  memory: {
    scope: ({ runtimeContext }) =>
      `user:${typeof runtimeContext.userId === 'string' ? runtimeContext.userId : 'anonymous'}`,
    maxFileBytes: 16 * 1024,
  },
});
