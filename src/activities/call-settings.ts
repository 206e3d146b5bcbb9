import { safeValidateTypes } from '@ai-sdk/provider-utils';
import type { FlexibleSchema, ToolApprovalConfiguration, ToolSet } from 'ai';
import type {
  AgentCallSettings,
  AnyAgentDefinition,
  ModelCallSettings,
  PrepareCallArgs,
  RuntimeContext,
} from '../agents/agent-definition';
import { CadreError } from '../errors';

/** The settings one run actually uses, after `prepareCall`. */
export interface EffectiveCallSettings {
  instructions?: string;
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
    modelSettings: agent.modelSettings,
  };
  if (typeof agent.prepareCall !== 'function') return base;
  const prepareCall = agent.prepareCall as (
    args: PrepareCallArgs<ToolSet, unknown>,
  ) => Promise<AgentCallSettings> | AgentCallSettings;
  const options = await validateCallOptions(agent, request.callOptions);
  return { ...base, ...(await prepareCall({ ...base, options, runtimeContext: request.runtimeContext ?? {} })) };
}
