import { createUIMessageStream, createUIMessageStreamResponse, type UIMessageChunk } from 'ai';
import type { AgentClient } from '../client/agent-client';
import type { StreamCursor, StreamedEvent } from '../client/tree-stream';
import type { UsageTotals } from '../protocol/usage';
import { type ChatMessageMetadata, turnMessageId } from './chat-turns';
import { runLookups } from './run-lookups';
import { callKey } from './client-tool-outputs';
import { TreeFollower } from './tree-follower';
import { treeTotals, usageSince } from './turn-usage';
import { UIProjector } from './ui-projector';

/** When a response may end: the activation settled, or the tree waits for a human or for the page's tool result. */
export interface SettleRule {
  /** A message was sent to an idle session: idle counts only once this many activations have passed. */
  activationsAbove?: number;
  /** Approvals this request decided: their being pending (a stale read) does not end the response. */
  decided: ReadonlySet<string>;
  /** Client-side calls this request answered (`callKey`): their waiting (a stale read) does not end the response. */
  submitted?: ReadonlySet<string>;
}

/** One streamed response of the chat: a turn's events as UI message chunks, from a cursor until it settles. */
export interface TurnResponseOptions {
  client: AgentClient;
  workflowId: string;
  /** The assistant message's id; unset, it is named after the first user message read. */
  messageId?: string;
  from: StreamCursor;
  /** Events before this cursor are projected (to rebuild state) but not sent: the page has them. */
  suppressBefore?: StreamCursor;
  settle: SettleRule;
  metadata: ChatMessageMetadata;
  /** The tree's totals when the turn's message was sent: the settled response reports the turn's usage. */
  usageFrom?: UsageTotals;
  /** Refused decisions, sent as an error at the end so the page shows them. */
  errors?: string[];
  signal?: AbortSignal;
  /** The response ends after this long even if the run goes on; the page resumes it with GET. */
  maxMs: number;
  /** Set for a message sent mid-turn: the response begins at the next user message; what is before it ends the running turn. */
  awaitUserMessage?: boolean;
  /**
   * The running turn's message id while that turn has answered nothing: unless it answers before
   * this request's message arrives, the message joins it (as `/messages` lists them), and so does this response.
   */
  joinsTurn?: string;
}

/** Streams the turn as an AI SDK UI message stream response (server-sent events). */
export function turnResponse(options: TurnResponseOptions): Response {
  const stream = createUIMessageStream({
    execute: async ({ writer }) => {
      await writeTurn(options, (chunk) => writer.write(chunk));
    },
    onError: (error) => `The chat stream failed: ${error instanceof Error ? error.message : String(error)}`,
  });
  return createUIMessageStreamResponse({ stream, keepAliveMs: 15_000 });
}

async function writeTurn(options: TurnResponseOptions, write: (chunk: UIMessageChunk) => void): Promise<void> {
  const { client, workflowId } = options;
  const follower = new TreeFollower(client, workflowId, options.from, { textDeltas: true, signal: options.signal });
  let projector = new UIProjector(workflowId, runLookups(client, workflowId));
  let started = false;
  /** True once this response sent chunks of its turn: a user message after that starts the next turn. */
  let answered = false;
  /** For a message sent mid-turn: true once the running turn streamed something before the message. */
  let runningTurnAnswered = false;
  const early: UIMessageChunk[] = [];
  const start = (messageId: string) => {
    if (started) return;
    started = true;
    write({ type: 'start', messageId, messageMetadata: options.metadata });
  };
  if (options.messageId) start(options.messageId);
  const deadline = Date.now() + options.maxMs;
  try {
    for (;;) {
      const next = await follower.next(250);
      if (next === 'done') break;
      if (next === 'idle') {
        if (Date.now() > deadline) break;
        const settled = await hasSettled(client, workflowId, options.settle);
        // Waiting for a human or the page ends the response once the calls running beside that wait have settled.
        if (settled === 'waiting' && projector.hasRunningCalls()) continue;
        if (settled && (await follower.caughtUp())) break;
        continue;
      }
      if (!started && options.awaitUserMessage && !startsTurn(next, workflowId)) {
        // Whether the running turn answers before this request's message decides which turn the message is in.
        if ((await projector.project(next)).length > 0) runningTurnAnswered = true;
        continue;
      }
      if (startsTurn(next, workflowId)) {
        // As `/messages` splits turns: the next turn is answered by the response of the request that sent it.
        if (started && answered && !options.messageId) break;
        // What came before this request's message is the end of the previous turn, which its own response streams.
        if (!started) {
          early.splice(0);
          projector = new UIProjector(workflowId, runLookups(client, workflowId));
        }
      }
      // Suppressed events are still projected: they rebuild the state the page already shows.
      const projected = await projector.project(next);
      const chunks = suppressed(next, options.suppressBefore) ? [] : projected;
      if (!started) {
        // The turn is named after its first user message (a new session's first event is `run-started`).
        const named = 'seq' in next && (next.type === 'user-message' || chunks.length > 0);
        if (!named) {
          early.push(...chunks);
          continue;
        }
        const joinedTurn = !runningTurnAnswered && startsTurn(next, workflowId) ? options.joinsTurn : undefined;
        start(joinedTurn ?? turnMessageId(workflowId, next.seq));
        for (const chunk of early.splice(0)) write(chunk);
      }
      for (const chunk of chunks) write(chunk);
      if (chunks.length > 0) answered = true;
    }
    if (options.signal?.aborted) return;
    if (!started) start(turnMessageId(workflowId, options.from[workflowId] ?? 0));
    for (const chunk of early.splice(0)) write(chunk);
    for (const chunk of projector.close()) write(chunk);
    const usage = options.usageFrom
      ? { usageFrom: options.usageFrom, usage: usageSince(options.usageFrom, await treeTotals(client, workflowId)) }
      : {};
    const metadata: ChatMessageMetadata = { cadre: { ...options.metadata.cadre, cursor: follower.cursor, ...usage } };
    write({ type: 'message-metadata', messageMetadata: metadata });
    for (const errorText of options.errors ?? []) write({ type: 'error', errorText });
    write({ type: 'finish' });
  } finally {
    follower.close();
  }
}

/** A user message of the root that opens a turn; a background subagent's notice is not one a request sent. */
function startsTurn(event: StreamedEvent, workflowId: string): boolean {
  return event.workflowId === workflowId && event.type === 'user-message' && !event.text.startsWith('[subagent ');
}

function suppressed(event: StreamedEvent, before: StreamCursor | undefined): boolean {
  if (!before || !('seq' in event)) return false;
  const position = before[event.workflowId];
  return position !== undefined && event.seq < position;
}

/**
 * `ended` when the run ended or the session's activation settled; `waiting` when the tree waits
 * for a human or for the page that it has not heard yet; false while it works.
 */
async function hasSettled(
  client: AgentClient,
  workflowId: string,
  rule: SettleRule,
): Promise<'ended' | 'waiting' | false> {
  const handle = client.getHandle(workflowId);
  const status = await handle.status();
  if (status.status === 'completed' || status.status === 'failed' || status.status === 'cancelled') return 'ended';
  if (
    status.status === 'idle' &&
    status.pendingMessages === 0 &&
    (rule.activationsAbove === undefined || status.activations > rule.activationsAbove)
  )
    return 'ended';
  const pending = await handle.pendingApprovals();
  if (pending.some((request) => !rule.decided.has(request.approvalId))) return 'waiting';
  // A client-side tool waits for the page (addToolOutput), which answers once this response ends.
  const awaited = await handle.pendingToolCalls();
  return awaited.some((call) => !rule.submitted?.has(callKey(call))) ? 'waiting' : false;
}
