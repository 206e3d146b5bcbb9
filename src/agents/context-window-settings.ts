import type { LanguageModel } from 'ai';
import { ConfigurationError } from '../errors';
import type { ContextWindowStrategy } from '../protocol/context-window';

/**
 * An agent's context budget. When the prompt of a model step would pass `maxTokens` (estimated),
 * older messages leave the model's view: summarised by a model call or dropped. The stored
 * conversation keeps every message.
 */
export interface ContextWindowSettings {
  /** Largest prompt, in estimated tokens, a model step may send (instructions and messages; tool definitions not counted). */
  maxTokens: number;
  /**
   * `summarize` (default): a model call replaces older messages with a summary. `drop-oldest`: they are left out.
   * @default `'summarize'`
   */
  strategy?: ContextWindowStrategy;
  /**
   * The model that writes summaries: a route of the worker's model registry or a model instance.
   * @default the agent's model
   */
  model?: string | LanguageModel;
  /**
   * Longest summary, in tokens (the summary call's `maxOutputTokens`).
   * @default a quarter of `maxTokens`, at most 1,000
   */
  summaryMaxTokens?: number;
}

/** The summary length a window allows: its `summaryMaxTokens`, or a quarter of `maxTokens` up to 1,000. */
export function summaryTokensOf(window: ContextWindowSettings): number {
  return window.summaryMaxTokens ?? Math.min(1000, Math.floor(window.maxTokens / 4));
}

/** Checks an agent's `contextWindow` at definition time; the message names the setting and a value that works. */
export function checkContextWindow(agentName: string, window: ContextWindowSettings | undefined): void {
  if (window === undefined) return;
  const where = `contextWindow of agent '${agentName}'`;
  if (!Number.isInteger(window.maxTokens) || window.maxTokens < 100) {
    throw new ConfigurationError(
      `${where} has maxTokens ${String(window.maxTokens)}. Use a whole number of at least 100, such as 100000.`,
    );
  }
  if (window.strategy !== undefined && window.strategy !== 'summarize' && window.strategy !== 'drop-oldest') {
    throw new ConfigurationError(
      `${where} has strategy ${JSON.stringify(window.strategy)}. Use 'summarize' or 'drop-oldest'; for any other strategy, return messages from prepareStep.`,
    );
  }
  const summaryTokens = window.summaryMaxTokens;
  if (
    summaryTokens !== undefined &&
    (!Number.isInteger(summaryTokens) || summaryTokens < 1 || summaryTokens >= window.maxTokens / 2)
  ) {
    throw new ConfigurationError(
      `${where} has summaryMaxTokens ${String(summaryTokens)}. Use a whole number from 1 to less than half of maxTokens (${window.maxTokens}).`,
    );
  }
}
