import type { ModelMessage } from 'ai';

/** How older messages leave the model's view when a prompt would pass the budget. */
export type ContextWindowStrategy = 'summarize' | 'drop-oldest';

/** Where a compaction stands in the stored conversation and what replaced the messages before `end`. */
export interface ContextCompaction {
  /** First message this compaction folded in: the previous compaction's `end`, or 0. */
  start: number;
  /** Exclusive end: the model's view continues at this message; messages `[0, end)` are replaced. */
  end: number;
  strategy: ContextWindowStrategy;
  /** Summary of every message before `end` (the `summarize` strategy). */
  summary?: string;
  /** The model step that found the prompt over the budget. */
  step: number;
  /** Estimated tokens of that prompt. */
  estimatedTokens: number;
  /** Tokens of the summary call, when there was one. */
  usage?: { inputTokens: number; outputTokens: number };
}

/** What a model step asks the workflow to compact before it can call the model: messages `[start, end)`. */
export interface CompactContextRequest {
  start: number;
  end: number;
  /** Estimated tokens of the prompt that passed the budget. */
  estimatedTokens: number;
}

/** The view a model step sent: where it begins in the stored conversation and its estimated size. */
export interface StepContext {
  /** Index of the first stored message the model saw (0 when nothing was compacted). */
  start: number;
  estimatedTokens: number;
}

/** The previous step's prompt as the provider counted it, so the next estimate can use real usage. */
export interface PreviousPrompt extends StepContext {
  /** Stored messages the previous prompt held (its transcript length). */
  length: number;
  /** The provider's input tokens for it. */
  inputTokens: number;
}

/** Text that opens the summary message at the start of the model's view. */
export const summaryPrefix = 'Summary of the earlier conversation:';

/** The message that stands for dropped messages at the start of the model's view (`drop-oldest`). */
export const droppedMessagesNote =
  'Earlier messages of this conversation were left out to fit the context window. Ask the user if you need them.';

/** Tokens a file or image part counts for, whatever its size (providers bill media by their own rules). */
export const mediaPartTokens = 1000;

/** Tokens each message counts for beyond its content (role and separators). */
const messageOverheadTokens = 4;

/** A prompt message of any layer: the AI SDK's `ModelMessage` or a provider's prompt message. */
export interface PromptMessageLike {
  role: string;
  content: unknown;
}

/**
 * Estimated tokens of `messages`: characters of text, tool inputs and outputs divided by 4, plus
 * 4 per message, and 1,000 per file or image. Works on `ModelMessage`s and on the prompt a provider receives.
 */
export function estimateTokens(messages: readonly PromptMessageLike[]): number {
  let tokens = 0;
  for (const message of messages) {
    tokens += messageOverheadTokens;
    if (typeof message.content === 'string') {
      tokens += Math.ceil(message.content.length / 4);
      continue;
    }
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) tokens += partTokens(part);
  }
  return tokens;
}

/** Estimated tokens of an agent's instructions (a string or system messages), as the system message of a prompt. */
export function estimateInstructionTokens(
  instructions: string | PromptMessageLike | PromptMessageLike[] | undefined,
): number {
  if (instructions === undefined || instructions === '') return 0;
  if (typeof instructions === 'string') return estimateTokens([{ role: 'system', content: instructions }]);
  return estimateTokens(Array.isArray(instructions) ? instructions : [instructions]);
}

/** The first message of the model's view after a compaction: the summary, or the note that messages were dropped. */
export function compactionMessage(compaction: Pick<ContextCompaction, 'summary'>): ModelMessage {
  if (compaction.summary === undefined) return { role: 'user', content: droppedMessagesNote };
  return { role: 'user', content: `${summaryPrefix}\n${compaction.summary}` };
}

/** The messages the model sees: after a compaction, its message and the stored messages from `end`. */
export function modelView(messages: readonly ModelMessage[], compaction?: ContextCompaction): ModelMessage[] {
  if (!compaction) return [...messages];
  return [compactionMessage(compaction), ...messages.slice(compaction.end)];
}

/**
 * Indexes in `(start, messages.length)` where the view may begin: never before a tool message, and
 * never where a tool call or an approval request before the index is answered at or after it.
 */
export function cutPoints(messages: readonly ModelMessage[], start: number): number[] {
  const open = new Set<string>();
  const points: number[] = [];
  for (let index = start; index < messages.length; index++) {
    const message = messages[index];
    if (index > start && open.size === 0 && message?.role !== 'tool') points.push(index);
    if (!message || typeof message.content === 'string') continue;
    for (const part of message.content as Array<{ type: string; toolCallId?: string; approvalId?: string }>) {
      if (part.type === 'tool-call' && part.toolCallId) open.add(`call:${part.toolCallId}`);
      if (part.type === 'tool-result' && part.toolCallId) open.delete(`call:${part.toolCallId}`);
      if (part.type === 'tool-approval-request' && part.approvalId) open.add(`approval:${part.approvalId}`);
      if (part.type === 'tool-approval-response' && part.approvalId) open.delete(`approval:${part.approvalId}`);
    }
  }
  return points;
}

/** Input of `planCompaction`. */
export interface CompactionPlanInput {
  /** The whole stored conversation the step sends. */
  messages: readonly ModelMessage[];
  /** Where the current view begins (the last compaction's end, or 0). */
  start: number;
  maxTokens: number;
  /** Tokens that come on top of the kept messages: the instructions and the summary (or drop note). */
  overheadTokens: number;
}

/**
 * Where the view should begin after compacting: the earliest cut point that brings the prompt to
 * half the budget (so compaction does not run every step), else the earliest that fits it at all;
 * undefined when even the newest messages alone do not fit.
 */
export function planCompaction(input: CompactionPlanInput): number | undefined {
  const { messages, start, maxTokens, overheadTokens } = input;
  const points = cutPoints(messages, start);
  const suffix = suffixTokens(messages);
  const fitting = (budget: number) => points.find((point) => overheadTokens + (suffix[point] ?? 0) <= budget);
  return fitting(Math.floor(maxTokens / 2)) ?? fitting(maxTokens);
}

/** `suffix[i]`: estimated tokens of `messages[i..]`. */
function suffixTokens(messages: readonly ModelMessage[]): number[] {
  const suffix = new Array<number>(messages.length + 1).fill(0);
  for (let index = messages.length - 1; index >= 0; index--) {
    suffix[index] = (suffix[index + 1] ?? 0) + estimateTokens([messages[index] as ModelMessage]);
  }
  return suffix;
}

function partTokens(part: unknown): number {
  if (typeof part === 'string') return Math.ceil(part.length / 4);
  if (!part || typeof part !== 'object') return 0;
  const record = part as Record<string, unknown>;
  switch (record.type) {
    case 'text':
    case 'reasoning':
      return Math.ceil(String(record.text ?? '').length / 4);
    case 'image':
    case 'file':
      return mediaPartTokens;
    case 'tool-call':
      return Math.ceil((String(record.toolName ?? '').length + jsonLength(record.input)) / 4);
    case 'tool-result':
      return Math.ceil(String(record.toolName ?? '').length / 4) + outputTokens(record.output);
    default:
      return Math.ceil(jsonLength(record) / 4);
  }
}

/** A tool result's output: its text, its JSON, or its content parts (media at the flat rate). */
function outputTokens(output: unknown): number {
  if (!output || typeof output !== 'object') return Math.ceil(jsonLength(output) / 4);
  const { type, value } = output as { type?: string; value?: unknown };
  if ((type === 'text' || type === 'error-text') && typeof value === 'string') return Math.ceil(value.length / 4);
  if (type === 'content' && Array.isArray(value)) {
    return value.reduce<number>((sum, item) => {
      const itemType = (item as { type?: string } | null)?.type;
      return sum + (itemType === 'text' ? partTokens(item) : itemType ? mediaPartTokens : 0);
    }, 0);
  }
  if (type === 'json' || type === 'error-json') return Math.ceil(jsonLength(value) / 4);
  return Math.ceil(jsonLength(output) / 4);
}

function jsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}
