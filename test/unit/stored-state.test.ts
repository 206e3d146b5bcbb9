import type { RunModelStepResult } from '../../src/activities/types';
import { AgentState } from '../../src/workflows/agent-state';

const ref = { id: 'chat-1@run-1', workflowId: 'chat-1' };

function storedStep(ids: string[], step: number): RunModelStepResult {
  return {
    assistantKey: `step:${step}:0`,
    calls: ids.map((id) => ({ toolCallId: id, toolName: 'read' })),
    toolCalls: ids.map((id) => ({ toolCallId: id, toolName: 'read', input: { id } })),
    rejectedCalls: [],
    text: '',
    finishReason: 'tool-calls',
    usage: { inputTokens: 1, outputTokens: 1 },
  };
}

describe('AgentState on the conversation store', () => {
  it('keeps references and counts, and hands pending messages and events to the next write once', () => {
    const state = AgentState.restore(undefined, { workflowId: 'chat-1', depth: 0 }, ref);
    state.receive('hello');
    state.openActivation();
    const step = storedStep(['a'], 1);
    state.recordModelStep(step);
    state.recordToolResults(step, new Map([['a', { stored: { outputType: 'text', bytes: 9000, preview: 'x' } }]]));
    const writes = state.storeWrites();
    expect(writes.writes).toEqual({
      from: 0,
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'stored', key: 'step:1:0' },
        { role: 'tool', content: [{ type: 'stored-tool-result', toolCallId: 'a', toolName: 'read' }] },
      ],
    });
    expect(writes.events?.map((event) => event.type)).toEqual(['user-message', 'tool-call', 'tool-result']);
    state.receive('more');
    state.drainInbox();
    state.confirmWrites(writes);
    expect(state.storeWrites().writes).toEqual({ from: 3, messages: [{ role: 'user', content: 'more' }] });
    expect(state.conversation.length).toBe(4);
    expect(state.events.page(0).events.map((event) => event.seq)).toEqual([3]);
    expect(state.events.page(0).stored).toEqual({ conversationId: ref.id, written: 3 });
  });

  it('carries no message content through continue-as-new, whatever the length of the conversation', () => {
    const state = AgentState.restore(undefined, { workflowId: 'chat-1', depth: 0 }, ref);
    state.receive('go');
    state.openActivation();
    for (let index = 1; index <= 500; index++) {
      const step = storedStep([`call-${index}`], index);
      state.recordModelStep(step);
      state.recordToolResults(
        step,
        new Map([[`call-${index}`, { stored: { outputType: 'text', bytes: 8192, preview: 'x'.repeat(300) } }]]),
      );
      state.confirmWrites(state.storeWrites());
    }
    const snapshot = state.snapshot();
    expect(state.conversation.length).toBe(1001);
    expect(JSON.stringify(snapshot).length).toBeLessThan(2_000);
    const restored = AgentState.restore(snapshot, { workflowId: 'chat-1', depth: 0 }, ref);
    expect(restored.conversation.length).toBe(1001);
    expect(restored.steps).toBe(500);
    expect(restored.events.next).toBe(state.events.next);
  });

  it('starts a fork after its parent prefix, which counts as written', () => {
    const fork = { ...ref, fork: { parentId: 'parent@run', length: 7 } };
    const state = AgentState.restore(undefined, { workflowId: 'chat-1', depth: 1 }, fork);
    state.receive('task');
    state.openActivation();
    expect(state.activationStart).toBe(7);
    expect(state.storeWrites().writes).toEqual({ from: 7, messages: [{ role: 'user', content: 'task' }] });
  });

  it('keeps the snapshot small however many approvals are decided and subagents finish', () => {
    const state = AgentState.restore(undefined, { workflowId: 'chat-1', depth: 0 }, ref);
    for (let index = 1; index <= 1_000; index++) {
      const approvalId = `approval-${index}-1`;
      state.approvals.request({
        approvalId,
        workflowId: 'chat-1',
        toolCallId: `call-${index}`,
        toolName: 'pay',
        input: { amount: index, note: 'x'.repeat(100) },
        requestedAt: '2026-11-30T00:00:00.000Z',
      });
      state.approvals.decide(approvalId, { approved: true, by: 'alice', decidedAt: '2026-11-30T00:00:01.000Z' });
      state.addChild({
        workflowId: `chat-1/research-${state.nextChildNumber()}`,
        toolName: 'research',
        toolCallId: `call-${index}`,
        agent: 'researcher',
        depth: 1,
        status: 'completed',
        mode: 'foreground',
      });
    }
    const running = {
      workflowId: 'chat-1/research-1001',
      toolName: 'research',
      toolCallId: 'call-1001',
      agent: 'researcher',
      depth: 1,
      status: 'running' as const,
      mode: 'foreground' as const,
    };
    state.addChild(running);
    expect(state.approvals.requests).toHaveLength(100);
    expect(state.approvals.requests[0]?.approvalId).toBe('approval-901-1');
    expect(state.children).toHaveLength(101);
    expect(state.children).toContainEqual(running);
    expect(JSON.stringify(state.snapshot()).length).toBeLessThan(64 * 1024);
    const restored = AgentState.restore(state.snapshot(), { workflowId: 'chat-1', depth: 0 }, ref);
    expect(restored.nextChildNumber()).toBe(1_002);
  });
});
