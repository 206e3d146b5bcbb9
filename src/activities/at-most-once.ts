import { randomUUID } from 'node:crypto';
import { toolStartKey } from '../protocol/pending-message';
import type { ConversationIo } from './conversation-io';
import type { RunToolArgs } from './types';

/** The start mark of an at-most-once call: the attempt that recorded it. */
interface StartMark {
  attempt: string;
}

/**
 * Records that this attempt starts the call, before its `execute`: true when it is the first, false
 * when an earlier attempt started it (then it must not run again). The store keeps the first mark.
 */
export async function startsFirst(conversations: ConversationIo, args: RunToolArgs): Promise<boolean> {
  const attempt = randomUUID();
  const mark = await conversations.put<StartMark>(args.conversation, toolStartKey(args.toolCallId), { attempt });
  return mark.attempt === attempt;
}
