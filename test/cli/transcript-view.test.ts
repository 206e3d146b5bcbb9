import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { transcriptCommand } from '../../src/cli/commands/transcript';
import { droppedMessagesNote, summaryPrefix } from '../../src/protocol/context-window';
import { openStore } from '../../src/store';

/** Over half a page: two such messages never share a page of the store (1 MB). */
const big = 'x'.repeat(700 * 1024);

describe('cadre transcript --view model', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-transcript-view-'));
  const previous = process.env.CADRE_STORE_URL;
  beforeAll(async () => {
    process.env.CADRE_STORE_URL = `sqlite:${path.join(folder, 'cadre.db')}`;
    const store = await openStore();
    const compacted = { id: 'talker-1@run', workflowId: 'talker-1' };
    await store.ensureConversation(compacted);
    await store.appendMessages(compacted.id, 0, [
      { role: 'user', content: 'Tell me about topic 1.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Topic 1 is old news.' }] },
      { role: 'user', content: 'Tell me about topic 2.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Topic 2 is recent.' }] },
    ]);
    await store.putCompaction(compacted.id, {
      start: 0,
      end: 2,
      strategy: 'summarize',
      summary: 'The user asked about topic 1; it is old news.',
      step: 2,
      estimatedTokens: 420,
    });
    const long = { id: 'long-1@run', workflowId: 'long-1' };
    await store.ensureConversation(long);
    await store.appendMessages(
      long.id,
      0,
      ['first', 'second', 'third'].map((name) => ({ role: 'user' as const, content: `${name} ${big}` })),
    );
    await store.putCompaction(long.id, {
      start: 0,
      end: 1,
      strategy: 'drop-oldest',
      step: 3,
      estimatedTokens: 500_000,
    });
    const plain = { id: 'plain-1@run', workflowId: 'plain-1' };
    await store.ensureConversation(plain);
    await store.appendMessages(plain.id, 0, [{ role: 'user', content: 'Hello.' }]);
    await store.close();
  });
  afterAll(() => {
    process.env.CADRE_STORE_URL = previous;
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function transcript(workflowId: string, json: boolean, view?: 'full' | 'model'): Promise<string[]> {
    const lines: string[] = [];
    expect(await transcriptCommand(workflowId, json, (line) => lines.push(line), view)).toBe(0);
    return lines;
  }

  it('prints the summary first, then the stored messages from compactedBefore on', async () => {
    expect(await transcript('talker-1', false, 'model')).toEqual([
      '(model view: message [0] stands for stored messages 0 to 1; [1] on are the stored messages from 2 on; compactedBefore 2)',
      `[0] user: ${summaryPrefix}\nThe user asked about topic 1; it is old news.`,
      '[1] user: Tell me about topic 2.',
      '[2] assistant\n  Topic 2 is recent.',
    ]);
  });

  it('prints the model view as JSON messages alone, the summary message first', async () => {
    const lines = await transcript('talker-1', true, 'model');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { role: 'user', content: `${summaryPrefix}\nThe user asked about topic 1; it is old news.` },
      { role: 'user', content: 'Tell me about topic 2.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Topic 2 is recent.' }] },
    ]);
  });

  it('reads a long model view page after page', async () => {
    const lines = await transcript('long-1', false, 'model');
    expect(lines.map((line) => line.slice(0, 40))).toEqual([
      '(model view: message [0] stands for stor',
      `[0] user: ${droppedMessagesNote}`.slice(0, 40),
      '[1] user: second xxxxxxxxxxxxxxxxxxxxxxx',
      '[2] user: third xxxxxxxxxxxxxxxxxxxxxxxx',
    ]);
  });

  it('prints every stored message by default, compacted or not', async () => {
    const lines = await transcript('talker-1', false);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('[0] user: Tell me about topic 1.');
  });

  it('says the model sees every message when nothing was compacted', async () => {
    expect(await transcript('plain-1', false, 'model')).toEqual([
      '(model view: no compaction yet, the model sees every stored message)',
      '[0] user: Hello.',
    ]);
  });
});
