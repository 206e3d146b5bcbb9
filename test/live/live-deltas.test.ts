import { DatabaseSync } from 'node:sqlite';
import { defineAgent } from '../../src/agents/define-agent';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { flakyStreamingModel } from '../helpers/flaky-stream-model';
import { slowStreamingModel } from '../helpers/slow-model';

const longAnswer = Array.from({ length: 120 }, (_unused, index) => `w${index} `);
const retryAnswer = Array.from({ length: 20 }, (_unused, index) => `right${index} `);

/** Rows of the live-delta table a run left behind, counted with plain SQL on the suite's SQLite file. */
function leftoverRows(workflowId: string): number {
  const url = process.env.CADRE_STORE_URL ?? '';
  const database = new DatabaseSync(url.replace(/^sqlite:/, ''));
  try {
    const row = database.prepare('SELECT COUNT(*) AS n FROM cadre_live_deltas WHERE workflow_id = ?').get(workflowId);
    return Number((row as { n: number }).n);
  } finally {
    database.close();
  }
}

function deltasOf(events: readonly StreamedEvent[]): string {
  return events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
}

describe('live text through the store', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv([
      defineAgent({ name: 'long-talker', model: slowStreamingModel(longAnswer, 20) }),
      defineAgent({
        name: 'flaky-talker',
        model: flakyStreamingModel({
          failedText: (index) => `wrong${index} `,
          failAfter: 50,
          answer: retryAnswer,
          delayMs: 10,
        }),
      }),
    ]);
  });
  afterAll(async () => {
    await env.stop();
  });

  it('streams a step’s text in many small updates, and the run leaves no live rows behind', async () => {
    const handle = await env.client.start('long-talker', { prompt: 'talk' });
    const events: StreamedEvent[] = [];
    for await (const event of handle.stream()) events.push(event);
    const textAt = events.findIndex((event) => event.type === 'text');
    expect(deltasOf(events.slice(0, textAt))).toBe(longAnswer.join(''));
    // 120 deltas 20 ms apart, batched at most 100 ms apart: far more than the heartbeats' one per 2 s.
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThanOrEqual(10);
    expect(leftoverRows(handle.workflowId)).toBe(0);
  });

  it('resumes mid-step from a cursor with no word lost or repeated', async () => {
    const handle = await env.client.start('long-talker', { prompt: 'talk' });
    const first: StreamedEvent[] = [];
    const abort = new AbortController();
    for await (const event of handle.stream({ signal: abort.signal })) {
      first.push(event);
      if (first.filter((seen) => seen.type === 'text-delta').length >= 3) break;
    }
    const last = first.at(-1);
    expect(last?.type).toBe('text-delta');
    const rest: StreamedEvent[] = [];
    for await (const event of handle.stream({ cursor: last?.cursor })) rest.push(event);
    const textAt = rest.findIndex((event) => event.type === 'text');
    expect(rest.slice(0, textAt).some((event) => event.type === 'text-delta')).toBe(true);
    expect(deltasOf(first) + deltasOf(rest.slice(0, textAt))).toBe(longAnswer.join(''));
  });

  it('resets a step’s partial text when its attempt fails after streaming, before the retry’s text', async () => {
    const handle = await env.client.start('flaky-talker', { prompt: 'talk' });
    const events: StreamedEvent[] = [];
    for await (const event of handle.stream()) events.push(event);
    const resetAt = events.findIndex((event) => event.type === 'step-reset');
    expect(resetAt).toBeGreaterThan(0);
    expect(events[resetAt]).toMatchObject({ type: 'step-reset', step: 1, attempt: 2 });
    expect(deltasOf(events.slice(0, resetAt))).toMatch(/^wrong0 wrong1 /);
    const textAt = events.findIndex((event) => event.type === 'text');
    const retried = deltasOf(events.slice(resetAt, textAt));
    expect(retried).not.toContain('wrong');
    expect(retryAnswer.join('').startsWith(retried)).toBe(true);
    expect(events[textAt]).toMatchObject({ type: 'text', text: retryAnswer.join('') });
    expect(leftoverRows(handle.workflowId)).toBe(0);
  });
});
