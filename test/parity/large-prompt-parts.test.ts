import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { historySizeBytes } from '../../src/client/history-size';
import { maxPromptContentBytes } from '../../src/protocol/prompt-content';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

const vision = reactiveModel('I see a large image.', 'done', 'large-vision');

/** 1 MiB of image bytes that do not repeat in short runs (so nothing along the way could shrink them). */
function largeImage(seed: number): Uint8Array {
  const bytes = new Uint8Array(1024 * 1024);
  let state = seed;
  for (let index = 0; index < bytes.length; index++) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

/**
 * The file parts of the user messages of a model call, as the provider receives them: their fields
 * and their data decoded (no megabyte strings in an assertion, so a failure prints a short diff).
 */
function userFiles(call: LanguageModelV4CallOptions | undefined) {
  return (call?.prompt ?? [])
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content)
    .flatMap((part) => {
      if (part.type !== 'file') return [];
      const data = part.data as { type?: string; data?: unknown };
      return [
        {
          mediaType: part.mediaType,
          filename: part.filename,
          dataType: data.type,
          bytes: typeof data.data === 'string' ? Buffer.from(data.data, 'base64') : undefined,
        },
      ];
    });
}

let env: AgentTestEnv;

beforeAll(async () => {
  env = await startAgentTestEnv([defineAgent({ name: 'large-vision', model: vision })]);
});

afterAll(async () => {
  await env?.stop();
});

describe('large prompt parts', () => {
  it('sends a 1 MiB image prompt to the model whole, through the conversation store, while history stays small', async () => {
    const image = largeImage(1);
    const base64 = Buffer.from(image).toString('base64');
    const handle = await env.client.start('large-vision', {
      prompt: [
        { type: 'text', text: 'What is in this image?' },
        { type: 'image', image, mediaType: 'image/png' },
      ],
    });
    expect((await handle.result()).text).toBe('I see a large image.');
    const [file] = userFiles(vision.calls.at(-1));
    expect({ ...file, bytes: undefined }).toEqual({ mediaType: 'image/png', dataType: 'data', bytes: undefined });
    expect(file?.bytes?.equals(Buffer.from(image))).toBe(true);
    const history = await historySizeBytes(env.client.client, handle.workflowId);
    expect(history).toBeLessThan(32 * 1024);
    // A figure for the README, not an assertion.
    process.stdout.write(`large prompt parts: a 1 MiB image prompt left ${history} bytes of workflow history\n`);
    const stored: unknown[] = [];
    for await (const message of handle.messages()) stored.push(message);
    expect(JSON.stringify(stored[0]).includes(base64)).toBe(true);
  });

  it('sends a large file to a running session through send(), by reference', async () => {
    const handle = await env.client.start('large-vision', { mode: 'session' });
    const file = largeImage(2);
    const before = vision.calls.length;
    await handle.send({
      role: 'user',
      content: [
        { type: 'text', text: 'Summarize this scan.' },
        { type: 'file', data: file, mediaType: 'application/pdf', filename: 'scan.pdf' },
      ],
    });
    await waitFor(() => vision.calls.length > before, 'the session to call its model');
    const [sent] = userFiles(vision.calls.at(-1));
    expect({ ...sent, bytes: undefined }).toEqual({
      mediaType: 'application/pdf',
      filename: 'scan.pdf',
      dataType: 'data',
      bytes: undefined,
    });
    expect(sent?.bytes?.equals(Buffer.from(file))).toBe(true);
    await handle.end();
    await handle.result();
    expect(await historySizeBytes(env.client.client, handle.workflowId)).toBeLessThan(32 * 1024);
  });

  it('refuses a large image when the client cannot open a store, saying to configure one or send a URL', async () => {
    const storeless = AgentClient.fromClient(env.client.client, {
      taskQueue: env.client.taskQueue,
      // A folder that cannot be created (this test file is in its place): the store does not open.
      store: `sqlite:${__filename}/cadre.db`,
    });
    await expect(
      storeless.start('large-vision', { prompt: [{ type: 'image', image: largeImage(3), mediaType: 'image/png' }] }),
    ).rejects.toThrow(
      new RegExp(
        `more than the ${maxPromptContentBytes} a message may carry through workflow history, and the conversation store ` +
          ".*could not be opened: .*Give the client the workers' store .*or send large images and files as URLs",
        's',
      ),
    );
    await storeless.close();
  });

  it('refuses a prompt whose text alone is too large for history, and says to send it as a file', async () => {
    await expect(
      env.client.start('large-vision', { prompt: [{ type: 'text', text: 'x'.repeat(maxPromptContentBytes + 1) }] }),
    ).rejects.toThrow(/The prompt's text carries 262145 bytes.*Send long text as a file part/s);
  });
});
