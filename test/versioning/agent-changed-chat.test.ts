import { type UIMessage, type UIMessageChunk, validateUIMessages } from 'ai';
import { readUIMessages } from '../helpers/ui-messages';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { UIProjector } from '../../src/chat/ui-projector';
import type { AgentEventBody } from '../../src/protocol/agent-events';

const root = 'drifter-1';

function events(bodies: AgentEventBody[]): StreamedEvent[] {
  return bodies.map((body, seq) => ({
    ...body,
    seq,
    at: '2026-12-01T00:00:00Z',
    workflowId: root,
    depth: 0,
    cursor: {},
  }));
}

async function lastMessage(chunks: UIMessageChunk[]): Promise<UIMessage> {
  return (await readUIMessages(chunks)).at(-1)!;
}

describe('the chat projection of an agent-changed event', () => {
  it('shows the change as a data part in the turn where it happened, which the AI SDK accepts', async () => {
    const projector = new UIProjector(root, { approval: async () => undefined, childCall: async () => undefined });
    const chunks: UIMessageChunk[] = [];
    for (const event of events([
      { type: 'text', step: 1, text: 'Working on it.' },
      { type: 'agent-changed', step: 2, from: 'a7588767e77c1e22', to: '29eff8ea55d55ad6' },
      { type: 'text', step: 2, text: 'Done.' },
    ])) {
      chunks.push(...(await projector.project(event)));
    }
    chunks.push(...projector.close());
    const message = await lastMessage(chunks);
    expect(message.parts.filter((part) => part.type === 'data-agent-changed')).toEqual([
      expect.objectContaining({ data: { step: 2, from: 'a7588767e77c1e22', to: '29eff8ea55d55ad6' } }),
    ]);
    await expect(validateUIMessages({ messages: [message] })).resolves.toHaveLength(1);
  });
});
