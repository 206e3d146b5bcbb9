import { AwaitedCallBook } from '../../src/workflows/awaited-calls';

const at = '2026-01-01T00:00:00.000Z';

function bookWithCall(): AwaitedCallBook {
  const book = new AwaitedCallBook('locator-1');
  book.open({ toolCallId: 'call-1', workflowId: 'locator-1', toolName: 'getLocation', input: {}, awaitedAt: at });
  return book;
}

describe('AwaitedCallBook', () => {
  it('names the waiting calls when a result comes for an unknown id', () => {
    expect(bookWithCall().problemWith('call-9')).toEqual({
      type: 'UnknownToolCall',
      message:
        "Unknown tool call id 'call-9': no call to a client-side tool of run locator-1 waits for it. " +
        'Calls waiting for a result: call-1 (getLocation).',
    });
    expect(new AwaitedCallBook('empty').problemWith('call-9')?.message).toMatch(/Calls waiting for a result: none\.$/);
  });

  it('refuses a result without a toolCallId string', () => {
    expect(bookWithCall().problemWith(42)).toEqual({
      type: 'InvalidToolResult',
      message: 'A tool result needs a toolCallId string; got 42.',
    });
  });

  it('says which approval a call waits for before it takes a result', () => {
    expect(bookWithCall().problemWith('call-2', (id) => (id === 'call-2' ? 'approval-1-2' : undefined))).toEqual({
      type: 'ToolCallAwaitingApproval',
      message: "Tool call 'call-2' waits for approval 'approval-1-2' first. Approve it, then submit the tool's result.",
    });
  });

  it('takes one result per call: the loop takes it once, a second one is refused with who answered', () => {
    const book = bookWithCall();
    book.answer('call-1', { output: { type: 'json', value: { city: 'Paris' } } }, { by: 'alice', at });
    expect(book.pending()).toEqual([]);
    expect(book.take('call-1')).toEqual({ output: { type: 'json', value: { city: 'Paris' } } });
    expect(book.has('call-1')).toBe(false);
    expect(book.problemWith('call-1')).toEqual({
      type: 'ToolResultAlreadySubmitted',
      message: `Tool call 'call-1' (getLocation) already has a result: submitted by alice at ${at}. Each call takes one result.`,
    });
    expect(() => book.answer('call-1', { output: { type: 'json', value: null } }, { by: 'bob', at })).toThrow(
      /already has a result/,
    );
  });

  it('closes a waiting call on cancel, after which results are refused with the reason', () => {
    const book = bookWithCall();
    book.cancel('call-1', 'the turn was interrupted', at);
    expect(book.problemWith('call-1')).toEqual({
      type: 'ToolCallClosed',
      message: `Tool call 'call-1' (getLocation) no longer waits for a result: its wait was closed at ${at} (the turn was interrupted).`,
    });
  });

  it('keeps the waiting calls and only the last 100 closed ones', () => {
    const book = new AwaitedCallBook('run');
    for (let index = 0; index < 150; index++) {
      book.open({ toolCallId: `c${index}`, workflowId: 'run', toolName: 't', input: {}, awaitedAt: at });
      if (index > 0) book.answer(`c${index}`, { output: { type: 'json', value: index } }, { by: 'x', at });
    }
    expect(book.calls).toHaveLength(101);
    expect(book.pending().map((call) => call.toolCallId)).toEqual(['c0']);
  });
});
