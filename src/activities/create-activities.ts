import { ApplicationFailure, Context } from '@temporalio/activity';
import type { AgentSpec } from '../agents/agent-definition';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import { CadreError } from '../errors';
import { agentNotServedHereType, type LocalCall, type LocalOutcome } from '../protocol/step-placement';
import type { ActivityAttempt, InFlightCalls } from './in-flight-calls';
import type { ActivityDependencies } from './dependencies';
import { createRunModelStep } from './model-step';
import { createCompactContext } from './compact-context';
import { createRunTool } from './run-tool';
import { createVerifyApproval } from './verify-approval';
import { createAcceptToolResult } from './accept-tool-result';
import { resolveCallSettings, validateCallOptions } from './call-settings';
import type {
  AgentActivities,
  CommitConversationArgs,
  DescribeAgentArgs,
  DescribeAgentHereResult,
  MapSubagentOutputArgs,
  MapSubagentOutputResult,
} from './types';

/** Builds the agent workflow's activities over the worker's registries. */
export function createActivities(deps: ActivityDependencies): AgentActivities {
  const runModelStep = withAgentFingerprint(createRunModelStep(deps), deps);
  const runTool = createRunTool(deps);
  return {
    describeAgent: (args: DescribeAgentArgs) => describeAgent(deps, args),
    async describeAgentHere(args: DescribeAgentArgs): Promise<DescribeAgentHereResult> {
      // A worker of a fleet that splits its agents may not serve this one: the agent's queue then answers.
      if (!deps.agents.has(args.agent)) return {};
      return { spec: await describeAgent(deps, args, true) };
    },
    runModelStep: servedHere(deps, (args) => runModelStep(args)),
    runModelStepHere: servedHere(deps, (args, call) => here(deps, call, (attempt) => runModelStep(args, attempt))),
    compactContext: createCompactContext(deps),
    runTool: servedHere(deps, (args) => runTool(args)),
    runToolHere: servedHere(deps, (args, call) => here(deps, call, (attempt) => runTool(args, attempt))),
    adoptCall: ({ key }) => inFlightOf(deps).adopt(Context.current(), key),
    verifyApproval: createVerifyApproval(deps),
    signAttention: async (fields) => deps.signer?.sign(fields),
    acceptToolResult: createAcceptToolResult(deps),
    async mapSubagentOutput({ agent, toolName, result }: MapSubagentOutputArgs): Promise<MapSubagentOutputResult> {
      const map = deps.agents.get(agent).subagents?.[toolName]?.toModelOutput;
      const output = map ? await map(result) : result.text;
      return { output: typeof output === 'string' ? { type: 'text', value: output } : output };
    },
    async commitConversation(args: CommitConversationArgs): Promise<void> {
      await deps.conversations.applyWrites(args);
    },
  };
}

/**
 * The run's spec of `agent`: its definition, what `prepareCall` chose, and the specs its subagents
 * reach. `local`: described on the workflow's own worker (see {@link placementOf}).
 */
async function describeAgent(
  deps: ActivityDependencies,
  { agent, callOptions, runtimeContext, overrides }: DescribeAgentArgs,
  local = false,
): Promise<DescribedAgentSpec> {
  try {
    const definition = deps.agents.get(agent);
    await validateCallOptions(definition, callOptions);
    // What prepareCall chose that the workflow needs (model route, tool names, step cap) is recorded in the spec.
    const prepared =
      typeof definition.prepareCall === 'function'
        ? (await resolveCallSettings(definition, { callOptions, runtimeContext })).agent
        : undefined;
    const spec = {
      ...deps.agents.spec(agent, overrides, prepared),
      searchAttributes: deps.searchAttributes === true,
      signsApprovals: deps.signer !== undefined,
      ...fingerprintOf(deps, agent),
      ...placementOf(deps, local),
    };
    const agentSpecs = await reachableSpecs(deps, agent, local);
    return Object.keys(agentSpecs).length > 0 ? { ...spec, agentSpecs } : spec;
  } catch (error) {
    if (error instanceof CadreError) throw ApplicationFailure.nonRetryable(error.message, error.type);
    throw error;
  }
}

/**
 * Base specs of every agent the subagents of `root` can reach, so children start without asking
 * a worker. An agent this worker cannot describe as a child (no model, call options it requires)
 * is left out: its child runs `describeAgent` and fails there with the message it always had.
 */
async function reachableSpecs(
  deps: ActivityDependencies,
  root: string,
  local: boolean,
): Promise<Record<string, AgentSpec>> {
  const specs: Record<string, AgentSpec> = {};
  const seen = new Set<string>();
  const queue = [root];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const served = deps.agents.has(name);
    const subagents = served ? Object.values(deps.agents.get(name).subagents ?? {}) : [];
    for (const { agent } of subagents) {
      if (seen.has(agent)) continue;
      seen.add(agent);
      queue.push(agent);
      try {
        // An agent with prepareCall describes itself: its spec depends on the child's own request.
        if (typeof deps.agents.get(agent).prepareCall === 'function') continue;
        await validateCallOptions(deps.agents.get(agent), undefined);
        specs[agent] = {
          ...deps.agents.spec(agent),
          searchAttributes: deps.searchAttributes === true,
          ...fingerprintOf(deps, agent),
          ...placementOf(deps, local),
        };
      } catch {
        // Described by its own child run instead (see above).
      }
    }
  }
  return specs;
}

function fingerprintOf(deps: ActivityDependencies, agent: string): { fingerprint?: string } {
  const fingerprint = deps.fingerprints?.get(agent);
  return fingerprint ? { fingerprint } : {};
}

/** The model step, its result stamped with this worker's fingerprint of the agent, so the run sees a changed definition. */
function withAgentFingerprint(runModelStep: RunModelStep, deps: ActivityDependencies): RunModelStep {
  return async (args, attempt) => {
    const fingerprint = deps.fingerprints?.get(args.agent);
    // The workflow records `agent-changed` after this step: it, not the step, then writes the run's end.
    const changed =
      fingerprint !== undefined && args.agentFingerprint !== undefined && fingerprint !== args.agentFingerprint;
    const result = await runModelStep(changed ? { ...args, runEnd: undefined } : args, attempt);
    return fingerprint ? { ...result, agentFingerprint: fingerprint } : result;
  };
}

type RunModelStep = ReturnType<typeof createRunModelStep>;

/**
 * The spec's marks for a run described on its own worker: its calls go to the workflow's own queue
 * (`AgentSpec.onWorkflowQueue`), and run locally first when this worker runs local activities
 * (`AgentSpec.localActivities`).
 */
function placementOf(
  deps: ActivityDependencies,
  local: boolean,
): Pick<AgentSpec, 'localActivities' | 'onWorkflowQueue'> {
  if (!local) return {};
  if (!deps.inFlight) return { onWorkflowQueue: true };
  const { handOffAfterMs, sessions } = deps.inFlight.options;
  return {
    onWorkflowQueue: true,
    localActivities: { handOffAfterMs, ...(sessions === true ? {} : { tasksOnly: true }) },
  };
}

/** A call in this local activity, handed off to `adoptCall` when it outlives the worker's window. */
function here<T>(
  deps: ActivityDependencies,
  call: LocalCall,
  body: (attempt: ActivityAttempt) => Promise<T>,
): Promise<LocalOutcome<T>> {
  return inFlightOf(deps).runHere(Context.current(), call, body);
}

function inFlightOf(deps: ActivityDependencies): InFlightCalls {
  if (!deps.inFlight) throw new Error('This worker runs no local activities (localActivities is off).');
  return deps.inFlight;
}

/**
 * A call that, on a worker that does not serve the agent (a fleet split by agent, reached through
 * the workflow's own queue), or as a local activity on a worker that runs none, fails at once with
 * `AgentNotServedHere`, naming its queue: the workflow then runs it on the agent's queue, where
 * every worker serves the agent.
 */
function servedHere<ARGS extends { agent: string }, REST extends unknown[], RESULT>(
  deps: ActivityDependencies,
  activity: (args: ARGS, ...rest: REST) => Promise<RESULT>,
): (args: ARGS, ...rest: REST) => Promise<RESULT> {
  return async (args, ...rest) => {
    const { info } = Context.current();
    if (!deps.agents.has(args.agent) || (info.isLocal && !deps.inFlight)) {
      throw ApplicationFailure.create({
        type: agentNotServedHereType,
        nonRetryable: true,
        message: `This worker does not serve agent '${args.agent}': the call runs on the agent's task queue instead.`,
        details: [info.taskQueue],
      });
    }
    return await activity(args, ...rest);
  };
}
