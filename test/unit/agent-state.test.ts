import type { RunModelStepResult } from '../../src/activities/types';
import { AgentState } from '../../src/workflows/agent-state';

function stepWithCalls(ids: string[], rejected: string[] = []): RunModelStepResult {
  return {
    assistant: {
      role: 'assistant',
      content: ids.map((id) => ({ type: 'tool-call' as const, toolCallId: id, toolName: `tool_${id}`, input: {} })),
    },
    toolCalls: ids
      .filter((id) => !rejected.includes(id))
      .map((id) => ({
        toolCallId: id,
        toolName: `tool_${id}`,
        input: {},
        approval: { type: 'not-applicable' as const },
      })),
    rejectedCalls: rejected.map((id) => ({
      type: 'tool-result' as const,
      toolCallId: id,
      toolName: `tool_${id}`,
      output: { type: 'error-text' as const, value: `rejected ${id}` },
    })),
    text: '',
    finishReason: 'tool-calls',
    usage: { inputTokens: 3, outputTokens: 2 },
  };
}

describe('AgentState', () => {
  it('turns queued messages into user turns when an activation opens', () => {
    const state = AgentState.restore();
    state.receive('one');
    state.receive('two');
    state.openActivation();
    expect(state.page().messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
    ]);
    expect(state.hasMessages()).toBe(false);
    expect(state.activations).toBe(1);
  });

  it('answers the calls of a step in the order the model made them, rejected ones included', () => {
    const state = AgentState.restore();
    const step = stepWithCalls(['a', 'b', 'c'], ['b']);
    state.recordModelStep(step);
    state.recordToolResults(
      step,
      new Map([
        ['c', { output: { type: 'text' as const, value: 'C' } }],
        ['a', { output: { type: 'text' as const, value: 'A' } }],
      ]),
    );
    const toolMessage = state.page().messages[1];
    expect(toolMessage?.role).toBe('tool');
    expect((toolMessage?.content as Array<{ toolCallId: string }>).map((part) => part.toolCallId)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(state.closeOpenToolCalls('none left')).toBe(0);
    expect(state.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
  });

  it('closes only the calls that have no result', () => {
    const state = AgentState.restore();
    const step = stepWithCalls(['a', 'b']);
    state.recordModelStep(step);
    state.recordToolResults(step, new Map([['a', { output: { type: 'text' as const, value: 'A' } }]]));
    expect(state.closeOpenToolCalls('cancelled')).toBe(1);
    expect(state.page().messages.at(-1)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'b',
          toolName: 'tool_b',
          output: { type: 'error-text', value: 'cancelled' },
        },
      ],
    });
    expect(state.closeOpenToolCalls('cancelled')).toBe(0);
  });

  it('restores from a snapshot without sharing objects with the old state', () => {
    const state = AgentState.restore();
    state.receive('hi');
    state.openActivation();
    const restored = AgentState.restore(state.snapshot());
    restored.receive('later');
    expect(restored.page().messages).toEqual(state.page().messages);
    expect(restored.activationOpen).toBe(true);
    expect(state.inbox).toEqual([]);
  });

  it('pages the transcript from an index, clamped to its length', () => {
    const state = AgentState.restore();
    state.receive('a');
    state.receive('b');
    state.drainInbox();
    expect(state.page(1)).toEqual({ from: 1, total: 2, messages: [{ role: 'user', content: 'b' }] });
    expect(state.page(9)).toEqual({ from: 2, total: 2, messages: [] });
  });
});
