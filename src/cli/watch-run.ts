import type { AgentClient } from '../client/agent-client';
import type { AgentHandle } from '../client/agent-handle';
import { StoppedWatching } from './stopped-watching';
import type { Printer } from './printer';
import { followRun } from './run-follower';
import { cadreCommand } from '../server/command-hints';
import { usageSummary } from './usage-report';

/**
 * Follows a started run to its end and prints its final answer, or why it failed, and its
 * Temporal UI link. Ctrl-C stops watching, never the run, and says how to pick it up again.
 * Returns the exit code: 0 done, 1 failed, 130 stopped watching.
 */
export async function watchRun(
  client: AgentClient,
  handle: AgentHandle,
  printer: Printer,
  interactive = Boolean(process.stdin.isTTY),
): Promise<number> {
  const write = printer.line;
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  process.once('SIGINT', onInterrupt);
  try {
    await followRun(client.client, handle, printer, { interactive, signal: stop.signal });
    if (stop.signal.aborted) {
      write('');
      write(
        `Stopped watching. The run ${handle.workflowId} goes on; read it with: ${cadreCommand(`transcript ${handle.workflowId}`)}`,
      );
      return 130;
    }
    const { text, steps, stopReason, error } = await handle.result();
    write('');
    write(`Final answer (${steps} steps, ${stopReason}):`);
    write(text);
    if (error) write(error);
    write(usageSummary(await handle.usage()));
    return 0;
  } catch (error) {
    if (error instanceof StoppedWatching) {
      write('');
      write(error.message);
      return 130;
    }
    write('');
    write(`The run failed: ${failureMessage(error)}`);
    return 1;
  } finally {
    process.off('SIGINT', onInterrupt);
    write(`Temporal UI: ${handle.uiUrl() ?? '(set CADRE_UI_URL to get a link)'}`);
  }
}

/** The innermost message of an error's cause chain: what a person should read. */
export function failureMessage(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  while (current instanceof Error && current.cause instanceof Error) {
    current = current.cause;
    if ((current as Error).message) message = (current as Error).message;
  }
  return message;
}
