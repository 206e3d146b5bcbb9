import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import type { StreamCursor, StreamedEvent } from '../client/tree-stream';
import type { UsageTotals } from '../protocol/usage';
import { type ProjectorLookups, UIProjector } from './ui-projector';

/** What every assistant message of a chat carries in `metadata.cadre`. */
export interface ChatMessageMetadata {
  cadre: {
    workflowId: string;
    /** The run in Temporal UI, when the UI address is known. */
    uiUrl?: string;
    /** Where the response that wrote this message stopped: a continuation resumes there. */
    cursor?: StreamCursor;
    /** What the tree spent in this turn, set when the turn's response settles; `costUsd` only when every route has a price. */
    usage?: UsageTotals;
    /** The tree's totals when the turn's message was sent: a continuation of the turn measures from there. */
    usageFrom?: UsageTotals;
    /** Set on the answer to an edited message: the new chat the edit forked, which goes on from here. */
    chatId?: string;
  };
}

/**
 * A turn is the user messages in a row and the assistant's work that answers them; its
 * assistant message is named after the first of those user messages, so a stream and a restored
 * chat agree on it.
 */
export function turnMessageId(workflowId: string, userMessageSeq: number): string {
  return `${workflowId}:turn-${userMessageSeq}`;
}

/** The sequence number where the last turn of the root's events starts, if any. */
export function lastTurnStart(rootWorkflowId: string, events: StreamedEvent[]): number | undefined {
  let start: number | undefined;
  let previousWasUser = false;
  for (const event of events) {
    if (event.workflowId !== rootWorkflowId || event.type === 'text-delta') continue;
    const isUser = event.type === 'user-message';
    if (isUser && !previousWasUser) start = event.seq;
    previousWasUser = isUser;
  }
  return start;
}

/**
 * The id of the last turn's assistant message while that turn has answered nothing yet (as
 * `chatMessages` groups them: its user messages end the events), else undefined. A message sent
 * then joins that turn: an interrupted turn that said nothing, or one whose model call still runs.
 */
export async function unansweredTurnId(
  rootWorkflowId: string,
  events: StreamedEvent[],
  lookups: ProjectorLookups,
): Promise<string | undefined> {
  let turn: { id: string; projector: UIProjector; answered: boolean } | undefined;
  for (const event of events) {
    if (event.type === 'text-delta') continue;
    if (event.workflowId === rootWorkflowId && event.type === 'user-message') {
      if (!turn || turn.answered)
        turn = {
          id: turnMessageId(rootWorkflowId, event.seq),
          projector: new UIProjector(rootWorkflowId, lookups),
          answered: false,
        };
      continue;
    }
    if (turn && !turn.answered) turn.answered = (await turn.projector.project(event)).length > 0;
  }
  return turn && !turn.answered ? turn.id : undefined;
}

/**
 * The whole chat as UI messages, from the tree's event log: each user message, and for each turn
 * one assistant message projected exactly as the live stream projects it (tool outputs are the
 * event log's previews).
 */
export async function chatMessages(
  rootWorkflowId: string,
  events: StreamedEvent[],
  lookups: ProjectorLookups,
  metadata: ChatMessageMetadata,
): Promise<UIMessage[]> {
  const messages: UIMessage[] = [];
  let turn: { id: string; projector: UIProjector; chunks: UIMessageChunk[] } | undefined;
  const flush = async () => {
    if (turn && turn.chunks.length > 0)
      messages.push(await assemble(turn.id, [...turn.chunks, ...turn.projector.close()], metadata));
    turn = undefined;
  };
  for (const event of events) {
    if (event.type === 'text-delta') continue;
    if (event.workflowId === rootWorkflowId && event.type === 'user-message') {
      if (!turn || turn.chunks.length > 0) {
        await flush();
        turn = {
          id: turnMessageId(rootWorkflowId, event.seq),
          projector: new UIProjector(rootWorkflowId, lookups),
          chunks: [],
        };
      }
      messages.push({
        id: `${rootWorkflowId}:user-${event.seq}`,
        role: 'user',
        parts: [{ type: 'text', text: event.text }],
      });
      continue;
    }
    if (!turn) continue;
    turn.chunks.push(...(await turn.projector.project(event)));
  }
  await flush();
  return messages;
}

async function assemble(id: string, chunks: UIMessageChunk[], metadata: ChatMessageMetadata): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      controller.enqueue({ type: 'start', messageId: id, messageMetadata: metadata });
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.enqueue({ type: 'finish' });
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = message;
  return last ?? { id, role: 'assistant', parts: [], metadata };
}
