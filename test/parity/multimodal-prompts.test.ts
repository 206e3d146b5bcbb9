import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { sendMessageSignal } from '../../src/protocol/definitions';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const vision = reactiveModel('I see a tiny PNG.', 'done', 'vision');

const base64 = Buffer.from(png).toString('base64');

/** The parts of the user messages of a model call, as the provider receives them. */
function userParts(call: LanguageModelV4CallOptions | undefined) {
  return (call?.prompt ?? []).filter((message) => message.role === 'user').flatMap((message) => message.content);
}

let env: AgentTestEnv;

beforeAll(async () => {
  env = await startAgentTestEnv([defineAgent({ name: 'vision', model: vision })]);
});

afterAll(async () => {
  await env?.stop();
});

describe('prompts beyond text', () => {
  it('sends an image prompt to the model as a file part and keeps it in the stored conversation', async () => {
    const handle = await env.client.start('vision', {
      prompt: [
        { type: 'text', text: 'What is in this image?' },
        { type: 'image', image: png, mediaType: 'image/png' },
      ],
    });
    expect((await handle.result()).text).toBe('I see a tiny PNG.');
    const parts = userParts(vision.calls.at(-1));
    expect(parts[0]).toMatchObject({ type: 'text', text: 'What is in this image?' });
    expect(parts[1]).toMatchObject({ type: 'file', mediaType: 'image/png', data: { type: 'data', data: base64 } });
    const stored: unknown[] = [];
    for await (const message of handle.messages()) stored.push(message);
    expect(JSON.stringify(stored[0])).toContain(base64);
  });

  it('takes a whole user ModelMessage as the prompt of run()', async () => {
    const result = await env.client.run('vision', {
      role: 'user',
      content: [{ type: 'file', data: png.buffer, mediaType: 'image/png', filename: 'tiny.png' }],
    });
    expect(result.text).toBe('I see a tiny PNG.');
    expect(userParts(vision.calls.at(-1))[0]).toMatchObject({
      type: 'file',
      filename: 'tiny.png',
      data: { data: base64 },
    });
  });

  it("takes a user UIMessage, its file part's data URL becoming the image the model gets", async () => {
    const result = await env.client.run('vision', {
      id: 'message-1',
      role: 'user',
      parts: [
        { type: 'text', text: 'And this one?' },
        { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${base64}` },
      ],
    });
    expect(result.text).toBe('I see a tiny PNG.');
    expect(userParts(vision.calls.at(-1))).toMatchObject([
      { type: 'text', text: 'And this one?' },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: base64 } },
    ]);
  });

  it('delivers a multi-part message to a session through the sendMessage signal', async () => {
    const handle = await env.client.start('vision', { mode: 'session' });
    const before = vision.calls.length;
    await env.client.client.workflow.getHandle(handle.workflowId).signal(sendMessageSignal, {
      text: 'Describe it.',
      content: [
        { type: 'text', text: 'Describe it.' },
        { type: 'file', data: base64, mediaType: 'image/png' },
      ],
    });
    await waitFor(() => vision.calls.length > before, 'the session to call its model');
    expect(userParts(vision.calls.at(-1))[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
    await handle.end();
  });
});
