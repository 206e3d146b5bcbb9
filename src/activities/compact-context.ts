import { ApplicationFailure, Context } from '@temporalio/activity';
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import { summaryTokensOf } from '../agents/context-window-settings';
import { cutText } from '../protocol/text-preview';
import type { ActivityDependencies } from './dependencies';
import { keepHeartbeating } from './heartbeat';
import { modelCallFailure } from './provider-errors';
import type { CompactContextArgs, CompactContextResult } from './types';
import type { CadreErrorType } from '../protocol/error-types';

/** The fixed instructions of every summary call. */
export const summaryInstructions = [
  'You compact the earlier part of a conversation between a user and an AI assistant, so that the assistant can continue the conversation from your summary alone.',
  'Write a concise summary of the conversation below. Keep: what the user asked for and their instructions; decisions made; facts learned;',
  'each tool the assistant called, with its key input and what it returned; and any open tasks, questions or commitments.',
  'Keep names, numbers, ids, file paths and quotes exactly. Write plain text, with no preamble and no closing remark.',
].join(' ');

/** Longest rendering of one message part in the summary prompt; longer ones are cut with a visible marker. */
const maxPartChars = 8000;

/**
 * Builds `compactContext`: one model call that summarises messages `[start, end)` of the stored
 * conversation, together with the summary before them, and records the result as a compaction.
 * A retry after the summary was recorded returns the recorded one without calling the model.
 */
export function createCompactContext(deps: ActivityDependencies) {
  return async function compactContext(args: CompactContextArgs): Promise<CompactContextResult> {
    const context = Context.current();
    const stopHeartbeat = keepHeartbeating(context, { start: args.start, end: args.end });
    const { conversation } = args;
    try {
      const recorded = await deps.conversations.readCompaction(conversation, args.end);
      if (recorded?.end === args.end) return brief(recorded);
      const agent = deps.agents.get(args.agent);
      const window = agent.contextWindow;
      if (!window) {
        throw ApplicationFailure.nonRetryable(
          `Agent '${args.agent}' has no contextWindow on this worker, so its context cannot be compacted. Deploy the same agent definition to every worker of its task queue.`,
          'ConfigurationError' satisfies CadreErrorType,
        );
      }
      const earlier = args.start > 0 ? await deps.conversations.readCompaction(conversation, args.start) : undefined;
      const messages = (await deps.conversations.read(conversation, args.end)).slice(args.start, args.end);
      const model = summaryModel(deps, window.model, args.modelRoute);
      const result = await generateText({
        model,
        instructions: summaryInstructions,
        prompt: summaryPrompt(earlier?.summary, messages),
        maxOutputTokens: summaryTokensOf(window),
        // Temporal's retry policy owns retries, with backoff that survives worker restarts.
        maxRetries: 0,
        abortSignal: context.cancellationSignal,
      });
      const summary = result.text.trim();
      if (summary.length === 0) {
        throw ApplicationFailure.retryable(
          `The summary model returned no text for messages ${args.start} to ${args.end - 1} (finish reason '${result.finishReason}').`,
          'EmptySummary' satisfies CadreErrorType,
        );
      }
      const stored = await deps.conversations.putCompaction(conversation, {
        start: args.start,
        end: args.end,
        strategy: 'summarize',
        summary,
        step: args.step,
        estimatedTokens: args.estimatedTokens,
        usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
      });
      return brief(stored);
    } catch (error) {
      throw modelCallFailure(error, context, args);
    } finally {
      stopHeartbeat();
    }
  };
}

/** The user message of a summary call: the summary so far, then the messages to fold in, as text. */
export function summaryPrompt(earlierSummary: string | undefined, messages: readonly ModelMessage[]): string {
  const sections: string[] = [];
  if (earlierSummary) sections.push(`Summary of the conversation before these messages:\n${earlierSummary}`);
  sections.push(`Messages to summarize:\n${messages.map(renderMessage).join('\n')}`);
  return sections.join('\n\n');
}

/** One message as a line of text: its role, then each part (tool calls and results by name). */
function renderMessage(message: ModelMessage): string {
  if (typeof message.content === 'string') return `[${message.role}] ${cut(message.content)}`;
  const parts = (message.content as Array<Record<string, unknown>>).map((part) => {
    switch (part.type) {
      case 'text':
        return cut(String(part.text ?? ''));
      case 'reasoning':
        return `(reasoning) ${cut(String(part.text ?? ''))}`;
      case 'image':
      case 'file':
        return `(${String(part.mediaType ?? part.type)} attached)`;
      case 'tool-call':
        return `(called tool ${String(part.toolName)} with ${cut(JSON.stringify(part.input) ?? '')})`;
      case 'tool-result':
        return `(result of tool ${String(part.toolName)}: ${cut(resultText(part.output))})`;
      case 'tool-approval-request':
        return `(approval requested for call ${String(part.toolCallId)})`;
      case 'tool-approval-response':
        return `(approval ${part.approved ? 'granted' : 'denied'}${part.reason ? `: ${String(part.reason)}` : ''})`;
      default:
        return `(${String(part.type)})`;
    }
  });
  return `[${message.role}] ${parts.join(' ')}`;
}

function resultText(output: unknown): string {
  const { type, value, reason } = (output ?? {}) as { type?: string; value?: unknown; reason?: string };
  if (type === 'execution-denied') return `denied${reason ? `: ${reason}` : ''}`;
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? output) ?? '';
}

function cut(text: string): string {
  return text.length <= maxPartChars ? text : `${cutText(text, maxPartChars)} [cut: ${text.length} characters in all]`;
}

/** The window's own summary model (a route or an instance), or the step's model. */
function summaryModel(
  deps: ActivityDependencies,
  configured: string | LanguageModel | undefined,
  stepRoute: string,
): LanguageModel {
  if (configured === undefined) return deps.models.resolve(stepRoute);
  return typeof configured === 'string' ? deps.models.resolve(configured) : configured;
}

function brief(compaction: {
  start: number;
  end: number;
  summary?: string;
  usage?: { inputTokens: number; outputTokens: number };
}): CompactContextResult {
  return {
    start: compaction.start,
    end: compaction.end,
    summaryChars: compaction.summary?.length ?? 0,
    usage: compaction.usage ?? { inputTokens: 0, outputTokens: 0 },
  };
}
