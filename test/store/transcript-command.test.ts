import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { transcriptCommand } from '../../src/cli/commands/transcript';
import { openStore } from '../../src/store';

describe('cadre transcript', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-transcript-'));
  const previous = process.env.CADRE_STORE_URL;
  beforeAll(() => {
    process.env.CADRE_STORE_URL = `sqlite:${path.join(folder, 'cadre.db')}`;
  });
  afterAll(() => {
    process.env.CADRE_STORE_URL = previous;
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('prints a whole stored conversation, page after page, with no Temporal server', async () => {
    const store = await openStore();
    const conversation = { id: 'reader-1@run', workflowId: 'reader-1' };
    await store.ensureConversation(conversation);
    const big = 'x'.repeat(1200 * 1024);
    await store.appendMessages(conversation.id, 0, [
      { role: 'user', content: 'read both' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { n: 1 } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: big } }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Both read.' }] },
    ]);
    await store.close();

    const lines: string[] = [];
    expect(await transcriptCommand('reader-1', false, (line) => lines.push(line))).toBe(0);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('[0] user: read both');
    expect(lines[1]).toBe('[1] assistant\n  -> read({"n":1}) [c1]');
    expect(lines[2]).toBe(`[2] tool\n  <- read [c1] (text): ${big}`);
    expect(lines[3]).toBe('[3] assistant\n  Both read.');

    const json: string[] = [];
    await transcriptCommand('reader-1', true, (line) => json.push(line));
    expect(JSON.parse(json[3] ?? '')).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Both read.' }] });
  });
});
