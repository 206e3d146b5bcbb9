import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import type { StreamedEvent } from '../../src/client/tree-stream';
import type { AgentEventBody } from '../../src/protocol/agent-events';

/** Every message the AI SDK's reader builds from one response's chunks, one per chunk, as a page renders them. */
export async function readUIMessages(chunks: UIMessageChunk[]): Promise<UIMessage[]> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      controller.enqueue({ type: 'start', messageId: 'turn' });
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.enqueue({ type: 'finish' });
      controller.close();
    },
  });
  const seen: UIMessage[] = [];
  for await (const message of readUIMessageStream({ stream, terminateOnError: true }))
    seen.push(structuredClone(message));
  return seen;
}

/** Event bodies as the root run `workflowId` streamed them, numbered in order. */
export function rootEvents(workflowId: string, bodies: AgentEventBody[]): StreamedEvent[] {
  return bodies.map((body, seq) => ({ ...body, seq, at: '2026-12-01T00:00:00Z', workflowId, depth: 0, cursor: {} }));
}

/** The last message the AI SDK's reader builds from the chunks: what the page shows at the end. */
export async function lastUIMessage(chunks: UIMessageChunk[]): Promise<UIMessage> {
  return (await readUIMessages(chunks)).at(-1)!;
}
