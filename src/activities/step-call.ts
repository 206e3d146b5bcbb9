import type { AnyAgentDefinition } from '../agents/agent-definition';
import { continuableGuidance } from '../agents/subagent-definition';
import type { CompactContextRequest, StepContext } from '../protocol/context-window';
import { recallForTurn } from '../memory/turn-memories';
import { memoriesSection } from '../memory/memory-provider';
import { checkBudget } from './budget-check';
import { callModel, type ModelCallOutcome } from './call-model';
import { fitContext } from './context-fit';
import type { ActivityDependencies } from './dependencies';
import { firstChunkOption } from './first-chunk';
import type { ActivityAttempt } from './in-flight-calls';
import type { LiveWriter } from './live-writer';
import type { StepScene } from './step-scene';
import { composeInstructions, outputFormat, planStep } from './step-settings';
import type { RunModelStepArgs, RunModelStepResult } from './types';

/** A model call as the store records it: the outcome, and the view of the conversation it was sent. */
export type RecordedCall = ModelCallOutcome & { context?: StepContext };

/** A store record to write with the step's response (the run's budget scopes). */
export type StepRecord = { key: string; value: unknown };

/**
 * What the call phase gives: the model's response, with the run's budget scopes to record with it;
 * or a step that called no model (the budget is spent, or the workflow must compact first).
 */
export type CallPhase = { called: RecordedCall; scopes: StepRecord[] } | { noCall: RunModelStepResult };

/**
 * Calls the model once: checks the budgets, recalls the turn's memories, fits the prompt to the
 * agent's context window, runs `prepareStep`, then calls the model, streaming its text to `live`.
 */
export async function callModelPhase(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  scene: StepScene,
  live: LiveWriter,
  attempt: ActivityAttempt,
): Promise<CallPhase> {
  const { agent, settings, definition } = scene;
  const budget = await checkBudget(deps, args, definition);
  // The run's budget scopes, when this is its first recorded step: written with the response.
  const scopes = budget.unrecorded ? [budget.unrecorded] : [];
  if (budget.exceeded) return { noCall: await withScopes(deps, args, scopes, budgetStop(budget.exceeded)) };
  const memories = await recallForTurn(scene.turn, scene.messages);
  const sections = [args.overrides?.persona ?? '', ...backgroundGuidance(agent), memoriesSection(memories) ?? ''];
  // Within the agent's contextWindow: the compacted view, or nothing called until the workflow compacts.
  const fit = await fitContext(deps, agent, args, scene.messages, composeInstructions(settings.instructions, sections));
  if (fit.compact) return { noCall: await withScopes(deps, args, scopes, compactFirst(fit.compact)) };
  const plan = await planStep(
    agent,
    {
      model: scene.model,
      instructions: settings.instructions,
      messages: fit.messages,
      activeTools: agent.activeTools,
      toolChoice: agent.toolChoice,
    },
    {
      view: scene.view,
      runtimeContext: scene.runtimeContext,
      step: args.step,
      resolve: (route) => deps.models.resolve(route),
    },
  );
  const outcome = await callModel(
    {
      model: plan.model,
      instructions: composeInstructions(plan.instructions, sections),
      messages: plan.messages,
      tools: scene.tools,
      activeTools: plan.activeTools,
      toolChoice: plan.toolChoice,
      output: outputFormat(agent),
      settings: { ...settings.modelSettings, ...args.overrides?.modelSettings },
      step: args.step,
      streaming: agent.streaming ?? true,
      live,
      ...firstChunkOption(definition, args.overrides?.modelRoute ?? args.modelRoute),
    },
    attempt,
  );
  const called = {
    ...outcome,
    ...(plan.prepared ? { prepared: plan.prepared } : {}),
    ...(fit.context ? { context: fit.context } : {}),
  };
  return { called, scopes };
}

/** A step that called no model, returned after the run's budget scopes are recorded if they were not. */
async function withScopes(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  scopes: StepRecord[],
  step: RunModelStepResult,
): Promise<RunModelStepResult> {
  if (scopes.length > 0) await deps.conversations.write(args.conversation, { records: scopes });
  return step;
}

/** A step that called no model: the prompt passed the context window and the workflow must compact first. */
function compactFirst(request: CompactContextRequest): RunModelStepResult {
  return {
    toolCalls: [],
    rejectedCalls: [],
    text: '',
    finishReason: 'context-window',
    usage: { inputTokens: 0, outputTokens: 0 },
    compactContext: request,
  };
}

/** A step that called no model: a budget over the run is spent, so the run stops. */
function budgetStop(message: string): RunModelStepResult {
  return {
    toolCalls: [],
    rejectedCalls: [],
    text: '',
    finishReason: 'budget-exceeded',
    usage: { inputTokens: 0, outputTokens: 0 },
    budgetExceeded: message,
  };
}

/** The guidance section of each continuable subagent (background runs by default). */
function backgroundGuidance(agent: AnyAgentDefinition): string[] {
  return Object.entries(agent.subagents ?? {})
    .filter(([, subagent]) => (subagent.enableRunInBackground ?? true) && subagent.backgroundMode === 'continuable')
    .map(([toolName]) => continuableGuidance(toolName));
}
