import type { ModelMessage } from 'ai';
import { defineAgent } from '../../src/agents/define-agent';
import {
  compactionMessage,
  cutPoints,
  droppedMessagesNote,
  estimateTokens,
  mediaPartTokens,
  modelView,
  planCompaction,
  summaryPrefix,
} from '../../src/protocol/context-window';
import { summaryPrompt } from '../../src/activities/compact-context';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const call = (id: string, approvalId?: string): ModelMessage => ({
  role: 'assistant',
  content: [
    { type: 'tool-call', toolCallId: id, toolName: 'search', input: { query: id } },
    ...(approvalId ? [{ type: 'tool-approval-request' as const, approvalId, toolCallId: id }] : []),
  ],
});
const result = (id: string, value: string, approvalId?: string): ModelMessage => ({
  role: 'tool',
  content: [
    ...(approvalId ? [{ type: 'tool-approval-response' as const, approvalId, approved: true }] : []),
    { type: 'tool-result', toolCallId: id, toolName: 'search', output: { type: 'text', value } },
  ],
});

describe('token estimate', () => {
  it('counts characters of text, tool inputs and outputs by four, plus four per message', () => {
    expect(estimateTokens([user('x'.repeat(40))])).toBe(14);
    expect(estimateTokens([result('a', 'y'.repeat(400))])).toBe(4 + 2 + 100);
    expect(estimateTokens([{ role: 'user', content: [{ type: 'image', image: new Uint8Array(10_000_000) }] }])).toBe(
      4 + mediaPartTokens,
    );
  });

  it('gives a provider prompt the same estimate as the messages it came from', () => {
    const providerPrompt = [
      { role: 'user', content: [{ type: 'text', text: 'find cats' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'search', input: { query: 'a' }, providerOptions: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'search', output: { type: 'text', value: 'cats' } },
        ],
      },
    ];
    expect(estimateTokens(providerPrompt)).toBe(estimateTokens([user('find cats'), call('a'), result('a', 'cats')]));
  });
});

describe('cut points', () => {
  it('never separates a tool call from its result nor an approval request from its response', () => {
    const messages = [
      user('one'),
      call('a', 'approval-1'),
      result('a', 'found', 'approval-1'),
      assistant('done'),
      user('two'),
      call('b'),
      call('c'),
      result('b', 'b'),
      result('c', 'c'),
      assistant('done'),
    ];
    expect(cutPoints(messages, 0)).toEqual([1, 3, 4, 5, 9]);
    expect(cutPoints(messages, 4)).toEqual([5, 9]);
  });
});

describe('compaction plan', () => {
  const turns = Array.from({ length: 10 }, (_unused, turn) => [
    user(`question ${turn}`),
    call(`call-${turn}`),
    result(`call-${turn}`, 'z'.repeat(200)),
    assistant(`answer ${turn}`),
  ]).flat();

  it('cuts at the earliest point that brings the prompt to half the budget', () => {
    const end = planCompaction({ messages: turns, start: 0, maxTokens: 400, overheadTokens: 20 });
    expect(end).toBeDefined();
    const kept = estimateTokens(turns.slice(end));
    expect(20 + kept).toBeLessThanOrEqual(200);
    expect(cutPoints(turns, 0)).toContain(end);
    const earlier = cutPoints(turns, 0).filter((point) => point < (end ?? 0));
    for (const point of earlier) expect(20 + estimateTokens(turns.slice(point))).toBeGreaterThan(200);
  });

  it('finds no cut when the newest tool call and its result alone do not fit', () => {
    const midStep = turns.slice(0, 39);
    expect(planCompaction({ messages: midStep, start: 0, maxTokens: 60, overheadTokens: 10 })).toBeUndefined();
    expect(planCompaction({ messages: midStep, start: 0, maxTokens: 80, overheadTokens: 10 })).toBe(37);
  });

  it('shows the model the summary, then the messages from the end of the compaction', () => {
    const view = modelView(turns, {
      start: 0,
      end: 36,
      strategy: 'summarize',
      summary: 'Nine turns.',
      step: 1,
      estimatedTokens: 1,
    });
    expect(view[0]).toEqual({ role: 'user', content: `${summaryPrefix}\nNine turns.` });
    expect(view.slice(1)).toEqual(turns.slice(36));
    expect(compactionMessage({})).toEqual({ role: 'user', content: droppedMessagesNote });
  });

  it('asks the summary model about the earlier summary and each message, tool calls by name', () => {
    const prompt = summaryPrompt('Earlier they met.', [user('hi'), call('a'), result('a', 'cats')]);
    expect(prompt).toBe(
      'Summary of the conversation before these messages:\nEarlier they met.\n\nMessages to summarize:\n' +
        '[user] hi\n[assistant] (called tool search with {"query":"a"})\n[tool] (result of tool search: cats)',
    );
  });
});

describe('contextWindow settings', () => {
  it('refuses a budget that is not a whole number of at least 100, naming the setting', () => {
    expect(() => defineAgent({ name: 'small', contextWindow: { maxTokens: 10 } })).toThrow(
      "contextWindow of agent 'small' has maxTokens 10. Use a whole number of at least 100",
    );
  });

  it('refuses an unknown strategy and points to prepareStep for custom ones', () => {
    expect(() =>
      defineAgent({ name: 'odd', contextWindow: { maxTokens: 1000, strategy: 'newest' as 'summarize' } }),
    ).toThrow(/Use 'summarize' or 'drop-oldest'; for any other strategy, return messages from prepareStep/);
  });
});
