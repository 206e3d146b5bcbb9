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

const ref = { id: 'agent-1@run-1', workflowId: 'agent-1' };
const fresh = () => AgentState.restore(undefined, { workflowId: 'agent-1', depth: 0 }, ref);
/** The messages the state has decided and not yet written: every message of a state that never wrote. */
const messagesOf = (state: AgentState) => state.storeWrites().writes?.messages ?? [];

describe('AgentState', () => {
  it('turns queued messages into user turns when an activation opens', () => {
    const state = fresh();
    state.receive('one');
    state.receive('two');
    state.openActivation();
    expect(messagesOf(state)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
    ]);
    expect(state.hasMessages()).toBe(false);
    expect(state.activations).toBe(1);
  });

  it('answers the calls of a step in the order the model made them, rejected ones included', () => {
    const state = fresh();
    const step = stepWithCalls(['a', 'b', 'c'], ['b']);
    state.recordModelStep(step);
    state.recordToolResults(
      step,
      new Map([
        ['c', { output: { type: 'text' as const, value: 'C' } }],
        ['a', { output: { type: 'text' as const, value: 'A' } }],
      ]),
    );
    const toolMessage = messagesOf(state)[1];
    expect(toolMessage?.role).toBe('tool');
    expect(
      ((toolMessage as { content?: unknown } | undefined)?.content as Array<{ toolCallId: string }>).map(
        (part) => part.toolCallId,
      ),
    ).toEqual(['a', 'b', 'c']);
    expect(state.closeOpenToolCalls('none left')).toBe(0);
    expect(state.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
  });

  it('closes only the calls that have no result', () => {
    const state = fresh();
    const step = stepWithCalls(['a', 'b']);
    state.recordModelStep(step);
    state.recordToolResults(step, new Map([['a', { output: { type: 'text' as const, value: 'A' } }]]));
    expect(state.closeOpenToolCalls('cancelled')).toBe(1);
    expect(messagesOf(state).at(-1)).toEqual({
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
    const state = fresh();
    state.receive('hi');
    state.openActivation();
    const restored = AgentState.restore(state.snapshot(), { workflowId: 'agent-1', depth: 0 }, ref);
    restored.receive('later');
    expect(messagesOf(restored)).toEqual(messagesOf(state));
    expect(restored.activationOpen).toBe(true);
    expect(state.inbox).toEqual([]);
  });
});
