import { safeValidateTypes } from '@ai-sdk/provider-utils';
import type { FlexibleSchema, Instructions, ToolApprovalConfiguration, ToolSet } from 'ai';
import {
  type AgentCallSettings,
  type AnyAgentDefinition,
  type ModelCallSettings,
  modelCallSettingNames,
  type PrepareCallArgs,
  type RuntimeContext,
} from '../agents/agent-definition';
import { CadreError } from '../errors';

/** The settings one run actually uses, after `prepareCall`. */
export interface EffectiveCallSettings {
  instructions?: Instructions;
  toolApproval?: ToolApprovalConfiguration<ToolSet, RuntimeContext>;
  modelSettings?: ModelCallSettings;
}

/** The run's request data, as the workflow carries it. */
export interface CallRequest {
  callOptions?: unknown;
  runtimeContext?: RuntimeContext;
}

/** Checks call options against the agent's `callOptionsSchema`; the error says which field is wrong. */
export async function validateCallOptions(agent: AnyAgentDefinition, callOptions: unknown): Promise<unknown> {
  if (!agent.callOptionsSchema) return callOptions;
  const result = await safeValidateTypes({
    value: callOptions,
    schema: agent.callOptionsSchema as FlexibleSchema<unknown>,
  });
  if (!result.success) {
    throw new CadreError(
      'InvalidCallOptions',
      `Call options for agent '${agent.name}' do not match its callOptionsSchema: ${result.error.message} ` +
        'Pass { callOptions } that match the schema to AgentClient.start.',
    );
  }
  return result.value;
}

/** The agent's settings for this run: its own, overridden by what `prepareCall` returns for the call options. */
export async function resolveCallSettings(
  agent: AnyAgentDefinition,
  request: CallRequest,
): Promise<EffectiveCallSettings> {
  const base: EffectiveCallSettings = {
    instructions: agent.instructions,
    toolApproval: agent.toolApproval as EffectiveCallSettings['toolApproval'],
    modelSettings: topLevelCallSettings(agent),
  };
  if (typeof agent.prepareCall !== 'function') return base;
  const prepareCall = agent.prepareCall as (
    args: PrepareCallArgs<ToolSet, unknown>,
  ) => Promise<AgentCallSettings> | AgentCallSettings;
  const options = await validateCallOptions(agent, request.callOptions);
  return { ...base, ...(await prepareCall({ ...base, options, runtimeContext: request.runtimeContext ?? {} })) };
}

/** The agent's call settings: the top-level ones (`temperature`, ... as `ToolLoopAgent` takes them), then `modelSettings`. */
export function topLevelCallSettings(agent: AnyAgentDefinition): ModelCallSettings | undefined {
  const topLevel = Object.fromEntries(
    modelCallSettingNames.filter((name) => agent[name] !== undefined).map((name) => [name, agent[name]]),
  ) as ModelCallSettings;
  if (Object.keys(topLevel).length === 0) return agent.modelSettings;
  return { ...topLevel, ...agent.modelSettings };
}
