import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';

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
