import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import type { AnyAgentDefinition, RuntimeContext } from '../agents/agent-definition';
import type { TurnContext } from '../memory/turn-memories';
import { type ActivationView, activationView } from './activation-steps';
import { type EffectiveCallSettings, resolveCallSettings } from './call-settings';
import type { ActivityDependencies } from './dependencies';
import { mcpToolsOf } from './mcp-clients';
import { modelTools } from './model-tools';
import type { RunModelStepArgs } from './types';

/**
 * What one model step works on, read once: the agent as `prepareCall` left it for the run, its
 * model and tools (MCP servers' included), and the prompt from the store.
 */
export interface StepScene {
  /** The agent's definition on this worker. */
  definition: AnyAgentDefinition;
  /** What `prepareCall` chose for the run (the definition's own settings without one). */
  settings: EffectiveCallSettings;
  /** The agent as `prepareCall` left it: the definition itself without one. */
  agent: AnyAgentDefinition;
  model: LanguageModel;
  /** The tools of the agent's MCP servers, reached in this activity. */
  mcpTools: ToolSet;
  /** The tool schemas offered to the model (no `execute`). */
  tools: ToolSet;
  /** The conversation up to the step's prompt. */
  messages: ModelMessage[];
  runtimeContext: RuntimeContext;
  /** What the agent's memory provider reads and writes for this turn. */
  turn: TurnContext;
  /** The activation's earlier steps, rebuilt from the conversation only when a hook reads them. */
  view: () => ActivationView;
}

/**
 * Reads what the step works on. An MCP server that cannot be reached fails the step here, which
 * then retries.
 */
export async function prepareStepScene(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  definition: AnyAgentDefinition,
): Promise<StepScene> {
  const messages = await deps.conversations.read(args.conversation, args.transcriptLength);
  const settings = await resolveCallSettings(definition, args);
  const agent = settings.agent;
  const model = preparedModel(definition, agent, args) ?? deps.models.resolve(args.modelRoute);
  const mcpTools = await mcpToolsOf(deps.mcp, agent);
  const runtimeContext = args.runtimeContext ?? {};
  let view: ActivationView | undefined;
  return {
    definition,
    settings,
    agent,
    model,
    mcpTools,
    tools: modelTools(agent, args.overrides?.toolFilter, mcpTools),
    messages,
    runtimeContext,
    turn: {
      agent,
      conversations: deps.conversations,
      conversation: args.conversation,
      runtimeContext,
      workflowId: args.workflowId,
      step: args.step,
    },
    view: () => (view ??= activationView(messages, args.activationStart ?? messages.length, runtimeContext)),
  };
}

/**
 * A model instance `prepareCall` returned, which the step uses as it is (a route it returned is the
 * recorded `modelRoute`). A parent's model override wins over both.
 */
function preparedModel(
  definition: AnyAgentDefinition,
  prepared: AnyAgentDefinition,
  args: RunModelStepArgs,
): LanguageModel | undefined {
  if (args.overrides?.modelRoute !== undefined || prepared.model === definition.model) return undefined;
  return typeof prepared.model === 'object' ? prepared.model : undefined;
}
