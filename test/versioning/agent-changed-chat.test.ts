import { type UIMessageChunk, validateUIMessages } from 'ai';
import { lastUIMessage, rootEvents } from '../helpers/ui-messages';
import { UIProjector } from '../../src/chat/ui-projector';

const root = 'drifter-1';

describe('the chat projection of an agent-changed event', () => {
  it('shows the change as a data part in the turn where it happened, which the AI SDK accepts', async () => {
    const projector = new UIProjector(root, { approval: async () => undefined, childCall: async () => undefined });
    const chunks: UIMessageChunk[] = [];
    for (const event of rootEvents(root, [
      { type: 'text', step: 1, text: 'Working on it.' },
      { type: 'agent-changed', step: 2, from: 'a7588767e77c1e22', to: '29eff8ea55d55ad6' },
      { type: 'text', step: 2, text: 'Done.' },
    ])) {
      chunks.push(...(await projector.project(event)));
    }
    chunks.push(...projector.close());
    const message = await lastUIMessage(chunks);
    expect(message.parts.filter((part) => part.type === 'data-agent-changed')).toEqual([
      expect.objectContaining({ data: { step: 2, from: 'a7588767e77c1e22', to: '29eff8ea55d55ad6' } }),
    ]);
    await expect(validateUIMessages({ messages: [message] })).resolves.toHaveLength(1);
  });
});
