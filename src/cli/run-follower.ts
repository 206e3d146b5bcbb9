import type { Client } from '@temporalio/client';
import type { AgentHandle } from '../client/agent-handle';
import { statusQuery } from '../protocol/definitions';
import { askForApproval } from './approval-prompter';
import { AwaitedResults } from './awaited-results';
import { describeEvent, labelOf, padOf } from './event-printer';
import type { Printer } from './printer';
import { cadreCommand } from '../server/command-hints';

/** Options of `followRun`. */
export interface FollowOptions {
  /** Ask y/N for approvals (a terminal); otherwise print the commands that decide them. */
  interactive: boolean;
  /** Stops following (Ctrl-C). */
  signal?: AbortSignal;
  /** How often to look for retried activities, in ms. Default 1,000. */
  retryCheckMs?: number;
}

/** What Temporal's activity types are called in the CLI's lines. */
const activityNames: Record<string, string> = {
  runModelStep: 'model step',
  runTool: 'tool call',
  describeAgent: 'agent lookup',
  commitConversation: 'conversation write',
};

/**
 * Prints a run and its subagents as they happen, until the whole tree has finished: the root's
 * text live at a terminal, each subagent's lines labelled with its id, each approval question
 * right after the calls it is about, the command that answers each call waiting for a client's
 * result, and every retried step or tool as it is retried. Stopped (`signal`) while a call waits,
 * it rejects with `StoppedWatching` saying how to answer it later.
 */
export async function followRun(
  client: Client,
  handle: AgentHandle,
  printer: Printer,
  options: FollowOptions,
): Promise<void> {
  const write = printer.line;
  const runs = new Set([handle.workflowId]);
  let heard = false;
  const hint = setTimeout(
    () =>
      heard ||
      write(
        `  (no worker has answered yet: is \`${cadreCommand('dev')}\` or \`${cadreCommand('worker')}\` running against this server, serving this agent?)`,
      ),
    10_000,
  );
  const stopRetries = new AbortController();
  const retries = watchRetries(client, runs, write, options.retryCheckMs ?? 1_000, stopRetries.signal);
  const awaited = new AwaitedResults(client, handle.workflowId);
  /** Text of the root's step shown live so far. */
  let live: { step: number; length: number } | undefined;
  try {
    for await (const event of handle.stream({ textDeltas: printer.live, signal: options.signal })) {
      heard = true;
      if (event.type === 'text-delta') {
        if (event.depth > 0) continue;
        if (live?.step !== event.step) live = { step: event.step, length: 0 };
        printer.partial(event.delta, padOf(0));
        live.length += event.delta.length;
        continue;
      }
      if (event.type === 'step-reset') {
        // A retried step: what was typed out stays on screen, marked, and the retry's text starts afresh.
        if (event.depth === 0 && live?.step === event.step) {
          printer.end();
          write(`(step ${event.step} failed and runs again: attempt ${event.attempt})`);
          live = { step: event.step, length: 0 };
        }
        continue;
      }
      if (event.type === 'text' && event.depth === 0 && live?.step === event.step) {
        // The step's whole text: only what the deltas did not show yet.
        printer.partial(event.text.slice(live.length), padOf(0));
        printer.end();
        live = undefined;
        continue;
      }
      if (event.type === 'subagent-started') runs.add(event.childWorkflowId);
      if (event.type === 'subagent-finished') runs.delete(event.childWorkflowId);
      for (const line of describeEvent(event)) write(line);
      if (event.type === 'approval-requested') {
        await askForApproval(
          handle,
          event.approvalId,
          (line) => write(`${labelOf(event)}${line}`),
          options.interactive,
        );
      }
      for (const line of await awaited.follow(event)) write(line);
    }
    // Stopped while the tree waits for a client's result: say which, and how to answer it.
    const stopped = options.signal?.aborted ? awaited.stoppedWatching() : undefined;
    if (stopped) throw stopped;
  } finally {
    clearTimeout(hint);
    printer.end();
    stopRetries.abort();
    await retries;
  }
}

/** Prints `retrying model step 3 (attempt 2/8): ...` once per retried attempt of any run being followed. */
async function watchRetries(
  client: Client,
  runs: Set<string>,
  write: (line: string) => void,
  everyMs: number,
  signal: AbortSignal,
): Promise<void> {
  const shown = new Set<string>();
  while (!signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    for (const workflowId of [...runs]) {
      if (signal.aborted) return;
      const handle = client.workflow.getHandle(workflowId);
      const description = await handle.describe().catch(() => undefined);
      for (const activity of description?.raw.pendingActivities ?? []) {
        const attempt = activity.attempt ?? 1;
        const key = `${workflowId}:${activity.activityId}:${attempt}`;
        if (attempt < 2 || shown.has(key) || !activity.lastFailure) continue;
        shown.add(key);
        const type = activity.activityType?.name ?? 'activity';
        const name = activityNames[type] ?? type;
        const step =
          type === 'runModelStep'
            ? ` ${((await handle.query(statusQuery).catch(() => undefined))?.steps ?? 0) + 1}`
            : '';
        const of = activity.maximumAttempts ? `/${activity.maximumAttempts}` : '';
        const label = workflowId.includes('/') ? `[${workflowId.slice(workflowId.lastIndexOf('/') + 1)}] ` : '';
        write(`  ${label}retrying ${name}${step} (attempt ${attempt}${of}): ${innermost(activity.lastFailure)}`);
      }
    }
  }
}

/** The innermost message of a failure as the server reports it. */
function innermost(failure: { message?: string | null; cause?: unknown }): string {
  let current = failure;
  while (current.cause && typeof current.cause === 'object') current = current.cause as typeof failure;
  return (current.message ?? failure.message ?? 'failed').split('\n')[0] ?? 'failed';
}
