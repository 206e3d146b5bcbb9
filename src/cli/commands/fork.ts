import { CadreError } from '../../errors';
import { AgentClient } from '../../client/agent-client';
import type { ForkAt } from '../../client/fork-point';

/**
 * `cadre fork <workflowId> --at <n> [prompt]`: starts a run that branches off `workflowId` at
 * message `n` (or `step:<n>`, or `last-user`), then goes on from the prompt; prints its workflow id.
 */
export async function forkCommand(
  workflowId: string,
  at: string,
  prompt: string | undefined,
  write: (line: string) => void,
): Promise<number> {
  const client = await AgentClient.connect();
  try {
    const fork = await client.getHandle(workflowId).fork({ at: forkAtOf(at), ...(prompt ? { prompt } : {}) });
    write(`[cadre] fork ${fork.workflowId} of ${workflowId} at ${at}`);
    const link = fork.uiUrl();
    if (link) write(`[cadre] ${link}`);
    return 0;
  } finally {
    await client.close();
  }
}

/** `--at` as a fork point: `12`, `step:3`, or `last-user` (before the last user message). */
export function forkAtOf(at: string): ForkAt {
  if (at === 'last-user') return 'before-last-user-message';
  const step = /^step:(\d+)$/.exec(at);
  if (step) return { step: Number(step[1]) };
  if (/^\d+$/.test(at)) return Number(at);
  throw new CadreError(
    'ForkPointNotFound',
    `--at '${at}' is not a fork point: pass a message index (12), step:<n> or last-user.`,
  );
}
