import type { ModelMessage } from 'ai';
import { resolveForkPoint, validForkPoints } from '../../src/client/fork-point';
import { forkAtOf } from '../../src/cli/commands/fork';

const call = (id: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'search', input: {} }],
});
const result = (id: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'search', output: { type: 'text', value: 'hits' } }],
});
const conversation: ModelMessage[] = [
  { role: 'user', content: 'find it' },
  call('a'),
  result('a'),
  { role: 'assistant', content: 'found' },
  { role: 'user', content: 'again' },
  { role: 'assistant', content: 'again found' },
];

describe('fork points', () => {
  it('are every index where no tool call waits for its result', () => {
    expect(validForkPoints(conversation)).toEqual([0, 1, 3, 4, 5, 6]);
  });

  it('name the end of a model step with the tool results that answer it', () => {
    expect(resolveForkPoint(conversation, { step: 0 })).toBe(1);
    expect(resolveForkPoint(conversation, { step: 1 })).toBe(3);
    expect(resolveForkPoint(conversation, { step: 2 })).toBe(4);
    expect(resolveForkPoint(conversation, { step: 3 })).toBe(6);
  });

  it('find the last user message for an edit-and-resend', () => {
    expect(resolveForkPoint(conversation, 'before-last-user-message')).toBe(4);
  });

  it('refuse points the conversation does not have', () => {
    expect(() => resolveForkPoint(conversation, 7)).toThrow(
      'Cannot fork at message index 7: the conversation has 6 messages (0 to 6 are points). Pass a point the conversation has.',
    );
    expect(() => resolveForkPoint(conversation, { step: 4 })).toThrow(/has 3 model steps/);
    expect(() => resolveForkPoint([], 'before-last-user-message')).toThrow(/has no user message/);
  });

  it('read the command line forms of --at', () => {
    expect(forkAtOf('12')).toBe(12);
    expect(forkAtOf('step:3')).toEqual({ step: 3 });
    expect(forkAtOf('last-user')).toBe('before-last-user-message');
    expect(() => forkAtOf('twelve')).toThrow("--at 'twelve' is not a fork point");
  });
});
