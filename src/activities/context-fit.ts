import { ApplicationFailure } from '@temporalio/activity';
import type { Instructions, ModelMessage } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { summaryTokensOf } from '../agents/context-window-settings';
import {
  type CompactContextRequest,
  type ContextCompaction,
  type PreviousPrompt,
  type StepContext,
  compactionMessage,
  estimateInstructionTokens,
  estimateTokens,
  modelView,
  planCompaction,
} from '../protocol/context-window';
import type { ActivityDependencies } from './dependencies';
import type { RunModelStepArgs } from './types';
import type { CadreErrorType } from '../protocol/error-types';

/** The messages a step may send, or the compaction the workflow must run first. */
export type ContextFit =
  { messages: ModelMessage[]; context?: StepContext; compact?: undefined } | { compact: CompactContextRequest };

/**
 * Fits a step's prompt into the agent's `contextWindow`: the stored conversation seen through its
 * latest compaction. Over the budget, `drop-oldest` records a new cut at once and `summarize` asks
 * the workflow for a `compactContext` activity. Agents without a window send the whole conversation.
 */
export async function fitContext(
  deps: ActivityDependencies,
  agent: AnyAgentDefinition,
  args: RunModelStepArgs,
  messages: ModelMessage[],
  instructions: Instructions | undefined,
): Promise<ContextFit> {
  const window = agent.contextWindow;
  const { conversation } = args;
  if (!window) return { messages };
  const compaction = await deps.conversations.readCompaction(conversation, messages.length);
  const start = compaction?.end ?? 0;
  const instructionTokens = estimateInstructionTokens(instructions);
  const estimate = promptEstimate(messages, compaction, instructionTokens, args.previousPrompt);
  if (estimate <= window.maxTokens) {
    return { messages: modelView(messages, compaction), context: { start, estimatedTokens: estimate } };
  }
  const strategy = window.strategy ?? 'summarize';
  const standIn =
    strategy === 'summarize'
      ? estimateTokens([compactionMessage({ summary: '' })]) + summaryTokensOf(window)
      : estimateTokens([compactionMessage({})]);
  const end = planCompaction({
    messages,
    start,
    maxTokens: window.maxTokens,
    overheadTokens: instructionTokens + standIn,
  });
  if (end === undefined) throw exceeded(agent, args, estimate, start, messages.length);
  if (strategy === 'summarize') return { compact: { start, end, estimatedTokens: estimate } };
  const dropped = await deps.conversations.putCompaction(conversation, {
    start,
    end,
    strategy,
    step: args.step,
    estimatedTokens: estimate,
  });
  const view = modelView(messages, dropped);
  return { messages: view, context: { start: dropped.end, estimatedTokens: instructionTokens + estimateTokens(view) } };
}

/**
 * The estimated prompt: characters / 4 of the instructions and the view, or, when the previous step
 * sent the same view with fewer messages, its provider-counted input tokens plus the messages added
 * since, whichever is larger.
 */
function promptEstimate(
  messages: readonly ModelMessage[],
  compaction: ContextCompaction | undefined,
  instructionTokens: number,
  previous: PreviousPrompt | undefined,
): number {
  const byCharacters = instructionTokens + estimateTokens(modelView(messages, compaction));
  const start = compaction?.end ?? 0;
  if (!previous || previous.start !== start || previous.length > messages.length) return byCharacters;
  return Math.max(byCharacters, previous.inputTokens + estimateTokens(messages.slice(previous.length)));
}

function exceeded(
  agent: AnyAgentDefinition,
  args: RunModelStepArgs,
  estimate: number,
  start: number,
  length: number,
): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'ContextWindowExceeded' satisfies CadreErrorType,
    nonRetryable: true,
    message:
      `Model step ${args.step} of agent '${agent.name}' needs about ${estimate} tokens, over contextWindow.maxTokens ` +
      `${agent.contextWindow?.maxTokens ?? 0}, and no compaction of messages ${start} to ${length - 1} brings it under: ` +
      'the instructions and the newest messages (a turn and its tool results are kept together) do not fit alone. ' +
      'Raise contextWindow.maxTokens, or lower maxToolOutputChars so that tool outputs take less room.',
  });
}
