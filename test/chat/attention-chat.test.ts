import { type UIMessageChunk, validateUIMessages } from 'ai';
import { lastUIMessage, rootEvents } from '../helpers/ui-messages';
import { UIProjector } from '../../src/chat/ui-projector';

const root = 'patient-1';

describe('the chat projection of a failure that waits for a person', () => {
  it('shows the failure as a data part, replaced by who decided it, which the AI SDK accepts', async () => {
    const projector = new UIProjector(root, { approval: async () => undefined, childCall: async () => undefined });
    const chunks: UIMessageChunk[] = [];
    for (const event of rootEvents(root, [
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
    const waiting = await lastUIMessage([...chunks, ...projector.close()]);
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
    for (const event of rootEvents(root, [
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
    const message = await lastUIMessage([...all, ...resolved.close()]);
    expect(message.parts.filter((part) => part.type === 'data-attention')).toEqual([
      expect.objectContaining({ id: 'attention-2-1', data: expect.objectContaining({ status: 'retry', by: 'ops' }) }),
    ]);
    await expect(validateUIMessages({ messages: [message] })).resolves.toHaveLength(1);
  });
});
