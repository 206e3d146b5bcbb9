import { ApplicationFailure } from '@temporalio/activity';
import type { Instructions, LanguageModel, ModelMessage, OutputInterface, SystemModelMessage } from 'ai';
import type { AnyAgentDefinition, RuntimeContext } from '../agents/agent-definition';
import type { ActivationStep, ActivationView } from './activation-steps';
import type { PreparedStepSummary } from './types';
import type { CadreErrorType } from '../protocol/error-types';

/** What one model call uses after `prepareStep`: the model, instructions, messages and tool settings. */
export interface StepPlan {
  model: LanguageModel;
  /** The agent's own instructions for the step (the Cadre sections are added after them). */
  instructions?: Instructions;
  messages: ModelMessage[];
  activeTools?: readonly string[];
  toolChoice?: unknown;
  /** What `prepareStep` chose, for the record; undefined without `prepareStep`. */
  prepared?: PreparedStepSummary;
}

/** What `prepareStep` may return (the AI SDK's `PrepareStepResult` fields Cadre applies). */
interface PrepareStepChoice {
  model?: LanguageModel;
  activeTools?: string[];
  toolChoice?: unknown;
  instructions?: Instructions;
  system?: Instructions;
  messages?: ModelMessage[];
}

/** Runs the agent's `prepareStep` in the activity and applies its choice to the step's plan. */
export async function planStep(
  agent: AnyAgentDefinition,
  base: Omit<StepPlan, 'prepared'>,
  context: {
    /** The activation's earlier steps, built when first asked for. */
    view: () => ActivationView;
    runtimeContext: RuntimeContext;
    step: number;
    resolve(route: string): LanguageModel;
  },
): Promise<StepPlan> {
  if (typeof agent.prepareStep !== 'function') return base;
  const prepareStep = agent.prepareStep as (
    args: unknown,
  ) => PrepareStepChoice | undefined | Promise<PrepareStepChoice | undefined>;
  const choice =
    (await userCode(agent, 'prepareStep', context.step, () =>
      prepareStep({
        steps: context.view().steps,
        stepNumber: context.view().steps.length,
        model: base.model,
        instructions: base.instructions,
        initialInstructions: base.instructions,
        messages: base.messages,
        initialMessages: context.view().initialMessages,
        responseMessages: context.view().responseMessages,
        runtimeContext: context.runtimeContext,
        toolsContext: {},
      }),
    )) ?? {};
  const model = typeof choice.model === 'string' ? context.resolve(choice.model) : choice.model;
  const instructions = choice.instructions ?? choice.system;
  const prepared: PreparedStepSummary = {
    ...(model ? { model: modelName(model) } : {}),
    ...(choice.activeTools ? { activeTools: [...choice.activeTools] } : {}),
    ...(choice.toolChoice !== undefined ? { toolChoice: choice.toolChoice } : {}),
    ...(instructions !== undefined ? { instructions: true } : {}),
    ...(choice.messages ? { messages: choice.messages.length } : {}),
  };
  return {
    model: model ?? base.model,
    instructions: instructions ?? base.instructions,
    messages: choice.messages ?? base.messages,
    activeTools: choice.activeTools ? [...choice.activeTools] : base.activeTools,
    toolChoice: choice.toolChoice ?? base.toolChoice,
    ...(Object.keys(prepared).length > 0 ? { prepared } : {}),
  };
}

/** The step's instructions: the agent's (string or system messages) followed by Cadre's sections (persona, guidance, memories). */
export function composeInstructions(own: Instructions | undefined, allSections: string[]): Instructions | undefined {
  const sections = allSections.filter(Boolean);
  if (own === undefined || typeof own === 'string') return [own, ...sections].filter(Boolean).join('\n\n') || undefined;
  const system: SystemModelMessage[] = Array.isArray(own) ? own : [own];
  return [...system, ...sections.map((content): SystemModelMessage => ({ role: 'system', content }))];
}

/** The agent's `stopWhen` conditions as a list (the AI SDK takes one or several). */
export function stopConditionsOf(agent: AnyAgentDefinition): Array<(args: { steps: ActivationStep[] }) => unknown> {
  return [agent.stopWhen ?? []].flat() as Array<(args: { steps: ActivationStep[] }) => unknown>;
}

/** True when one of the agent's `stopWhen` conditions is met over the activation's steps. */
export async function stopConditionMet(
  agent: AnyAgentDefinition,
  steps: () => ActivationStep[],
  step: number,
): Promise<boolean> {
  const conditions = stopConditionsOf(agent);
  if (conditions.length === 0) return false;
  const all = steps();
  const met = await userCode(agent, 'stopWhen', step, () =>
    Promise.all(conditions.map((condition) => condition({ steps: all }))),
  );
  return met.some(Boolean);
}

/**
 * The parsed structured output of a final step's text. A text that does not parse or match the
 * schema fails the step at once, as `ToolLoopAgent.generate` throws `NoObjectGeneratedError`.
 */
export async function parseOutput(
  agent: AnyAgentDefinition,
  text: string,
  context: { finishReason: string; usage: { inputTokens: number; outputTokens: number }; step: number },
): Promise<unknown> {
  const output = agent.output as OutputInterface | undefined;
  if (!output) return undefined;
  try {
    return await output.parseCompleteOutput({ text }, {
      response: { id: `step-${context.step}`, timestamp: new Date(0), modelId: '' },
      usage: context.usage,
      finishReason: context.finishReason,
    } as unknown as Parameters<OutputInterface['parseCompleteOutput']>[1]);
  } catch (error) {
    throw ApplicationFailure.create({
      type: 'NoOutputGenerated' satisfies CadreErrorType,
      nonRetryable: true,
      message:
        `Agent '${agent.name}' has an output of type '${output.name}', and the final text of step ${context.step} ` +
        `is not such an output: ${(error as Error).message} Text: ${text.slice(0, 200)}. ` +
        'Tell the model the format in the instructions, or check the schema.',
    });
  }
}

/** The settings for the AI SDK call: the output's response format only (Cadre parses the final text itself, after recording it). */
export function outputFormat(agent: AnyAgentDefinition): OutputInterface | undefined {
  const output = agent.output as OutputInterface | undefined;
  if (!output) return undefined;
  return { ...output, parseCompleteOutput: async () => undefined };
}

/**
 * Calls `onStepFinish` with the step, and `onFinish` with the activation's steps when the step
 * ends it. `steps` (the activation's steps, this one last) is built only for an agent with either.
 */
export async function runStepCallbacks(
  agent: AnyAgentDefinition,
  stepsOf: () => ActivationStep[],
  context: { endsActivation: boolean; output?: unknown; step: number; runtimeContext: RuntimeContext },
): Promise<void> {
  const finishes = context.endsActivation && typeof agent.onFinish === 'function';
  if (typeof agent.onStepFinish !== 'function' && !finishes) return;
  const steps = stepsOf();
  const last = steps.at(-1);
  if (!last) return;
  if (typeof agent.onStepFinish === 'function') {
    const onStepFinish = agent.onStepFinish as (event: unknown) => unknown;
    await userCode(agent, 'onStepFinish', context.step, () => onStepFinish(last));
  }
  if (finishes) {
    const onFinish = agent.onFinish as (event: unknown) => unknown;
    await userCode(agent, 'onFinish', context.step, () =>
      onFinish({
        ...last,
        steps,
        finalStep: last,
        runtimeContext: context.runtimeContext,
        ...(context.output !== undefined ? { output: context.output } : {}),
      }),
    );
  }
}

/** Runs one of the agent's functions; a throw fails the step attempt with a message naming it (Temporal retries it). */
async function userCode<T>(
  agent: AnyAgentDefinition,
  setting: string,
  step: number,
  run: () => T | Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw ApplicationFailure.create({
      type: 'AgentSettingFailed' satisfies CadreErrorType,
      message: `${setting} of agent '${agent.name}' threw at step ${step}: ${(error as Error)?.message ?? String(error)}. Fix it; the step is retried.`,
    });
  }
}

/** `provider:modelId` of a model instance, or the route itself. */
function modelName(model: LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}:${model.modelId}`;
}
