import type { ModelMessage } from 'ai';
import { CadreError } from '../errors';

/**
 * Where a fork branches off: a message index (the fork keeps messages `[0, at)`), the end of model
 * step `n` (its assistant message and the tool results answering it), or just before the last user
 * message (edit-and-resend).
 */
export type ForkAt = number | { step: number } | 'before-last-user-message';

/** The message index a fork point names in `messages` (the whole stored conversation), checked to be a valid point. */
export function resolveForkPoint(messages: readonly ModelMessage[], at: ForkAt): number {
  const index = forkIndex(messages, at);
  const valid = validForkPoints(messages);
  if (valid.includes(index)) return index;
  const before = valid.filter((point) => point < index).at(-1);
  const after = valid.find((point) => point > index);
  const nearest = [before, after].filter((point) => point !== undefined).join(' or ');
  throw new CadreError(
    'ForkInsideToolCall',
    `Cannot fork at message ${index}: a tool call before it has no result yet (${openCalls(messages, index).join(', ')}), ` +
      `so the fork would start inside an unanswered tool call. Fork at message ${nearest} instead.`,
  );
}

/** The index `at` names, before validity is checked; refuses a point the conversation does not have. */
function forkIndex(messages: readonly ModelMessage[], at: ForkAt): number {
  if (typeof at === 'number') {
    if (!Number.isInteger(at) || at < 0 || at > messages.length) {
      throw notFound(
        `message index ${String(at)}: the conversation has ${messages.length} messages (0 to ${messages.length} are points)`,
      );
    }
    return at;
  }
  if (at === 'before-last-user-message') {
    const last = messages.map((message) => message.role).lastIndexOf('user');
    if (last < 0) throw notFound(`'before-last-user-message': the conversation has no user message`);
    return last;
  }
  const steps = messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []));
  if (!Number.isInteger(at.step) || at.step < 0 || at.step > steps.length) {
    throw notFound(`step ${String(at.step)}: the conversation has ${steps.length} model steps (0 to ${steps.length})`);
  }
  if (at.step === 0) return steps[0] ?? messages.length;
  const assistant = steps[at.step - 1] ?? 0;
  // A step ends with the tool results that answer it, when they follow.
  return messages[assistant + 1]?.role === 'tool' ? assistant + 2 : assistant + 1;
}

function notFound(what: string): CadreError {
  return new CadreError('ForkPointNotFound', `Cannot fork at ${what}. Pass a point the conversation has.`);
}

/** Every index where no tool call is left without a result: the points a fork may start from. */
export function validForkPoints(messages: readonly ModelMessage[]): number[] {
  const points: number[] = [];
  for (let index = 0; index <= messages.length; index++) {
    if (openCalls(messages, index).length === 0) points.push(index);
  }
  return points;
}

/** Tool call ids in `messages[0, end)` without a tool result there. */
function openCalls(messages: readonly ModelMessage[], end: number): string[] {
  const open = new Set<string>();
  for (const message of messages.slice(0, end)) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') open.add(part.toolCallId);
      if (part.type === 'tool-result') open.delete(part.toolCallId);
    }
  }
  return [...open];
}
