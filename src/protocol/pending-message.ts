import type { ModelMessage, ToolApprovalResponse, ToolResultPart } from 'ai';
import type { InboxMessage } from './prompt-content';

/** A message an activity recorded in the store under `key` (a model step's assistant message). */
export interface StoredMessageRef {
  role: 'stored';
  key: string;
}

/** A tool result whose output a tool activity recorded in the store under `toolOutputKey(toolCallId)`. */
export interface StoredToolResultPart {
  type: 'stored-tool-result';
  toolCallId: string;
  toolName: string;
}

/** A tool message whose outputs may be references to stored tool outputs. */
export interface PendingToolMessage {
  role: 'tool';
  content: Array<ToolResultPart | ToolApprovalResponse | StoredToolResultPart>;
}

/** A user message whose parts may be references to prompt parts a client stored (see `StoredPromptPart`). */
export interface PendingUserMessage {
  role: 'user';
  content: InboxMessage;
}

/**
 * A message the workflow has placed in the conversation but not yet written to the store:
 * a plain message (user turns, cancellation results), or references to what activities stored.
 * The next activity that writes resolves the references, so history carries keys, not content.
 */
export type PendingMessage = ModelMessage | StoredMessageRef | PendingToolMessage | PendingUserMessage;

/** Messages to write at index `from` of the conversation, in order. */
export interface ConversationWrites {
  from: number;
  messages: PendingMessage[];
}

/** Store key of a tool call's output, recorded once by its tool activity. */
export function toolOutputKey(toolCallId: string): string {
  return `tool:${toolCallId}`;
}

/** Store key of the mark an at-most-once tool call records before its `execute` starts (see `atMostOnce`). */
export function toolStartKey(toolCallId: string): string {
  return `tool-start:${toolCallId}`;
}

/** Store key of a model step's response as the provider sent it (reused by a retried step). */
export function modelResponseKey(step: number, promptLength: number): string {
  return `model:${step}:${promptLength}`;
}

/** The prompt length a {@link modelResponseKey} names (how many messages the step saw), or undefined for another key. */
export function promptLengthOfResponseKey(key: string): number | undefined {
  const match = /^model:\d+:(\d+)$/.exec(key);
  return match ? Number(match[1]) : undefined;
}

/** Store key of a model step's result after approval policies ran (the assistant message and judged calls). */
export function modelStepKey(step: number, promptLength: number): string {
  return `step:${step}:${promptLength}`;
}
