import { type UIMessage, type UIMessageChunk, validateUIMessages } from 'ai';
import { readUIMessages } from '../helpers/ui-messages';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { UIProjector } from '../../src/chat/ui-projector';
import type { AgentEventBody } from '../../src/protocol/agent-events';

const root = 'patient-1';

function events(bodies: AgentEventBody[]): StreamedEvent[] {
  return bodies.map((body, seq) => ({
    ...body,
    seq,
    at: '2026-12-06T00:00:00Z',
    workflowId: root,
    depth: 0,
    cursor: {},
  }));
}

async function lastMessage(chunks: UIMessageChunk[]): Promise<UIMessage> {
  return (await readUIMessages(chunks)).at(-1)!;
}

describe('the chat projection of a failure that waits for a person', () => {
  it('shows the failure as a data part, replaced by who decided it, which the AI SDK accepts', async () => {
    const projector = new UIProjector(root, { approval: async () => undefined, childCall: async () => undefined });
    const chunks: UIMessageChunk[] = [];
    for (const event of events([
      { type: 'text', step: 1, text: 'Looking.' },
      {
        type: 'attention-needed',
        attentionId: 'attention-2-1',
        kind: 'model-step',
        step: 2,
        errorType: 'ProviderRequestRejected',
        message: 'HTTP 401: Incorrect API key provided.',
      },
    ])) {
      chunks.push(...(await projector.project(event)));
    }
    const waiting = await lastMessage([...chunks, ...projector.close()]);
    expect(waiting.parts.filter((part) => part.type === 'data-attention')).toEqual([
      expect.objectContaining({
        id: 'attention-2-1',
        data: {
          workflowId: root,
          kind: 'model-step',
          step: 2,
          message: 'HTTP 401: Incorrect API key provided.',
          status: 'waiting',
        },
      }),
    ]);

    const resolved = new UIProjector(root, { approval: async () => undefined, childCall: async () => undefined });
    const all: UIMessageChunk[] = [];
    for (const event of events([
      {
        type: 'attention-needed',
        attentionId: 'attention-2-1',
        kind: 'model-step',
        step: 2,
        errorType: 'ProviderRequestRejected',
        message: 'HTTP 401',
      },
      { type: 'attention-resolved', attentionId: 'attention-2-1', action: 'retry', by: 'ops' },
      { type: 'text', step: 2, text: 'Done.' },
    ])) {
      all.push(...(await resolved.project(event)));
    }
    const message = await lastMessage([...all, ...resolved.close()]);
    expect(message.parts.filter((part) => part.type === 'data-attention')).toEqual([
      expect.objectContaining({ id: 'attention-2-1', data: expect.objectContaining({ status: 'retry', by: 'ops' }) }),
    ]);
    await expect(validateUIMessages({ messages: [message] })).resolves.toHaveLength(1);
  });
});
