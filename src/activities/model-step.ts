import { Context } from '@temporalio/activity';
import type { LanguageModel, ModelMessage, ToolResultPart, ToolSet } from 'ai';
import { continuableGuidance } from '../agents/subagent-definition';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { modelResponseKey, modelStepKey } from '../protocol/pending-message';
import { callsOf } from '../protocol/step-calls';
import { callModel, type ModelCallOutcome } from './call-model';
import { LiveWriter } from './live-writer';
import { judgeToolCalls, withApprovalRequests } from './approval-requests';
import { policyReadsMessages } from './approval-policy';
import { resolveCallSettings } from './call-settings';
import type { ActivityDependencies } from './dependencies';
import { markClientSideCalls, modelTools } from './model-tools';
import { mcpToolsOf } from './mcp-clients';
import { type ActivationStep, type ActivationView, activationView, stepOf } from './activation-steps';
import {
  composeInstructions,
  outputFormat,
  parseOutput,
  planStep,
  runStepCallbacks,
  stopConditionMet,
  stopConditionsOf,
} from './step-settings';
import { keepHeartbeating } from './heartbeat';
import { fitContext } from './context-fit';
import type { CompactContextRequest, StepContext } from '../protocol/context-window';
import { modelCallFailure } from './provider-errors';
import type { RunModelStepArgs, RunModelStepResult } from './types';
import { recallForTurn, rememberTurn, type TurnContext } from '../memory/turn-memories';
import { memoriesSection } from '../memory/memory-provider';
import { checkBudget } from './budget-check';
import { stepUsageEntry } from './usage-recording';
import type { LedgerEntry } from '../store/usage-ledger';
import { firstChunkOption } from './first-chunk';
import type { ActivityAttempt } from './in-flight-calls';

/**
 * Builds `runModelStep`: one call to the model. It first writes what the workflow decided to the
 * store, reads the prompt, records the provider's response before any of the agent's own code runs
 * on it (a retried step reuses it instead of paying twice), then records the judged step (with the
 * response, when no such code ran) and returns its summary.
 */
export function createRunModelStep(deps: ActivityDependencies) {
  return async function runModelStep(
    args: RunModelStepArgs,
    context: ActivityAttempt = Context.current(),
  ): Promise<RunModelStepResult> {
    const live = new LiveWriter(
      deps.conversations.store.liveDeltas,
      { workflowId: args.workflowId, step: args.step, attempt: context.info.attempt + (args.attemptsBefore ?? 0) },
      deps.liveIntervalMs,
    );
    const stopHeartbeat = keepHeartbeating(context, () => live.progress());
    const { conversation } = args;
    try {
      const definition = deps.agents.get(args.agent);
      await deps.conversations.applyWrites(args);
      const stepKey = modelStepKey(args.step, args.transcriptLength);
      const recordedStep = await deps.conversations.get<RunModelStepResult>(conversation, stepKey);
      if (recordedStep) {
        await pruneLive(deps, live);
        return await summaryOf(deps, args, recordedStep, stepKey);
      }
      const messages = await deps.conversations.read(conversation, args.transcriptLength);
      const settings = await resolveCallSettings(definition, args);
      // From here on the agent is as prepareCall left it for this run (the definition itself without one).
      const agent = settings.agent;
      const model = preparedModel(definition, agent, args) ?? deps.models.resolve(args.modelRoute);
      // MCP servers are reached here, in the activity: a server that cannot be reached fails the step, which retries.
      const mcpTools = await mcpToolsOf(deps.mcp, agent);
      const tools = modelTools(agent, args.overrides?.toolFilter, mcpTools);
      const responseKey = modelResponseKey(args.step, args.transcriptLength);
      const reused = await deps.conversations.get<RecordedCall>(conversation, responseKey);
      const turn: TurnContext = {
        agent,
        conversations: deps.conversations,
        conversation,
        runtimeContext: args.runtimeContext ?? {},
        workflowId: args.workflowId,
        step: args.step,
      };
      const runtimeContext = args.runtimeContext ?? {};
      // The activation's earlier steps, rebuilt from the conversation only for a hook that reads them.
      let view: ActivationView | undefined;
      const viewOf = () => (view ??= activationView(messages, args.activationStart ?? messages.length, runtimeContext));
      let called: RecordedCall | undefined = reused;
      // The run's budget scopes, when this is its first recorded step: written with the response.
      let scopes: { key: string; value: unknown }[] = [];
      if (!called) {
        const budget = await checkBudget(deps, args, definition);
        scopes = budget.unrecorded ? [budget.unrecorded] : [];
        if (budget.exceeded) return await withScopes(deps, args, scopes, budgetStop(budget.exceeded));
        const memories = await recallForTurn(turn, messages);
        const sections = [args.overrides?.persona ?? '', ...backgroundGuidance(agent), memoriesSection(memories) ?? ''];
        // Within the agent's contextWindow: the compacted view, or nothing called until the workflow compacts.
        const fit = await fitContext(deps, agent, args, messages, composeInstructions(settings.instructions, sections));
        if (fit.compact) return await withScopes(deps, args, scopes, compactFirst(fit.compact));
        const plan = await planStep(
          agent,
          {
            model,
            instructions: settings.instructions,
            messages: fit.messages,
            activeTools: agent.activeTools,
            toolChoice: agent.toolChoice,
          },
          { view: viewOf, runtimeContext, step: args.step, resolve: (route) => deps.models.resolve(route) },
        );
        const outcome = await callModel(
          {
            model: plan.model,
            instructions: composeInstructions(plan.instructions, sections),
            messages: plan.messages,
            tools,
            activeTools: plan.activeTools,
            toolChoice: plan.toolChoice,
            output: outputFormat(agent),
            settings: { ...settings.modelSettings, ...args.overrides?.modelSettings },
            step: args.step,
            streaming: agent.streaming ?? true,
            live,
            ...firstChunkOption(definition, args.overrides?.modelRoute ?? args.modelRoute),
          },
          context,
        );
        called = {
          ...outcome,
          ...(plan.prepared ? { prepared: plan.prepared } : {}),
          ...(fit.context ? { context: fit.context } : {}),
        };
      }
      // The response, its usage and the run's budget scopes: one transaction, before any of the
      // agent's own code runs on the response, else with the judged step (see `runsAgentCodeOn`).
      const response: ResponseWrite | undefined = reused
        ? undefined
        : {
            records: [{ key: responseKey, value: called }, ...scopes],
            usage: stepUsageEntry(args, called, responseKey),
          };
      const judgedTools = { ...agent.tools, ...mcpTools };
      const offered = callsOfResponse(called);
      const early = response && runsAgentCodeOn(agent, settings.toolApproval, judgedTools, offered);
      const result = early ? ((await deps.conversations.write(conversation, response))[0] as RecordedCall) : called;
      const deferred = early ? undefined : response;
      const assistant = result.responseMessages[0];
      if (!assistant || assistant.role !== 'assistant') {
        throw new Error(`The model returned no assistant message (finish reason '${result.finishReason}').`);
      }
      // An earlier attempt's response, when one was recorded first, is the one judged.
      const { valid, rejected: rejectedCalls } = result === called ? offered : callsOfResponse(result);
      const judged = await judgeToolCalls(
        valid.map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, input: call.input })),
        {
          policy: settings.toolApproval,
          tools: judgedTools,
          messages,
          runtimeContext: args.runtimeContext ?? {},
          workflowId: args.workflowId,
          idPrefix: approvalIdPrefix(args.workflowId, args.rootWorkflowId),
          step: args.step,
          signer: deps.signer,
        },
      );
      const toolCalls = markClientSideCalls(agent, judged);
      const usage = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
      const hasCalls = toolCalls.length > 0 || rejectedCalls.length > 0;
      let steps: ActivationStep[] | undefined;
      const stepsOf = () =>
        (steps ??= [
          ...viewOf().steps,
          stepOf(assistant, viewOf().steps.length, result.finishReason, usage, runtimeContext),
        ]);
      const stopped = hasCalls && (await stopConditionMet(agent, stepsOf, args.step));
      const output = hasCalls
        ? undefined
        : await parseOutput(agent, result.text, { finishReason: result.finishReason, usage, step: args.step });
      const step: RunModelStepResult = {
        assistant: withApprovalRequests(assistant, toolCalls),
        toolCalls,
        rejectedCalls,
        text: result.text,
        finishReason: result.finishReason,
        usage,
        ...(stopped ? { stopped: 'stop-condition' as const } : {}),
        ...(output !== undefined ? { output } : {}),
        ...(result.prepared ? { prepared: result.prepared } : {}),
        ...(result.context ? { context: result.context } : {}),
      };
      const endsActivation =
        !hasCalls || stopped || (args.activationStep ?? 0) + 1 >= (args.activationStepLimit ?? Infinity);
      // Before the step is recorded: a lost worker calls them again (at least once), a recorded step never.
      await runStepCallbacks(agent, stepsOf, { endsActivation, output, step: args.step, runtimeContext });
      if (!hasCalls) await rememberTurn(turn, [...messages, assistant]);
      // The order of calls is needed only when the AI SDK rejected some; otherwise the valid calls give it.
      const calls = rejectedCalls.length > 0 ? { calls: callsOf(step) } : {};
      const summary = await recordStep(deps, args, { ...step, ...calls }, stepKey, deferred);
      await pruneLive(deps, live);
      return summary;
    } catch (error) {
      // An interrupted step is never recorded: its live text goes now. A failed one stays until its retry records.
      if (context.cancellationSignal.aborted) await pruneLive(deps, live);
      throw modelCallFailure(error, context, args);
    } finally {
      stopHeartbeat();
      void live.close();
    }
  };
}

/**
 * Once the step's message is recorded its live deltas go, after readers that poll had one look at the
 * last batch; later readers read the message. A failure only leaves rows behind. A first attempt
 * that wrote none has none to prune (a later one may find an earlier attempt's).
 */
async function pruneLive(deps: ActivityDependencies, live: LiveWriter): Promise<void> {
  await live.settle();
  if (live.key.attempt === 1 && !live.wrote) return;
  await deps.conversations.store.liveDeltas.prune(live.key.workflowId, live.key.step).catch(() => undefined);
}

/** A step that called no model, returned after the run's budget scopes are recorded if they were not. */
async function withScopes(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  scopes: { key: string; value: unknown }[],
  step: RunModelStepResult,
): Promise<RunModelStepResult> {
  if (scopes.length > 0) await deps.conversations.write(args.conversation, { records: scopes });
  return step;
}

/** A model response as it is recorded: its record and the run's budget scopes, and its usage row. */
type ResponseWrite = { records: { key: string; value: unknown }[]; usage: LedgerEntry };

/**
 * Whether the agent's own code runs on a model response before its step is recorded: an approval
 * policy or `needsApproval` function for one of its calls, `stopWhen` after calls, `onStepFinish`
 * or `onFinish`, or a memory provider that remembers the turn. Such code may be slow or lose its
 * worker, so the response is recorded first and a retry reuses it instead of calling the model
 * again; with none, nothing but Cadre's own judging runs in between, and the response is recorded
 * with the step, one commit fewer.
 */
function runsAgentCodeOn(
  agent: AnyAgentDefinition,
  policy: Parameters<typeof policyReadsMessages>[0],
  tools: ToolSet,
  calls: ResponseCalls,
): boolean {
  if (typeof agent.onStepFinish === 'function' || typeof agent.onFinish === 'function') return true;
  if (calls.valid.some((call) => policyReadsMessages(policy, tools, call.toolName))) return true;
  if (calls.valid.length > 0 || calls.rejected.length > 0) return stopConditionsOf(agent).length > 0;
  return typeof agent.memory?.provider?.remember === 'function';
}

/** A response's tool calls: the valid ones, to judge, and the ones the AI SDK rejected (their results in the tool message). */
interface ResponseCalls {
  valid: ModelCallOutcome['toolCalls'];
  rejected: ToolResultPart[];
}

function callsOfResponse(response: Pick<ModelCallOutcome, 'toolCalls' | 'responseMessages'>): ResponseCalls {
  const toolMessage = response.responseMessages[1];
  return {
    valid: response.toolCalls.filter((call) => !call.invalid),
    rejected:
      toolMessage?.role === 'tool'
        ? toolMessage.content.filter((part): part is ToolResultPart => part.type === 'tool-result')
        : [],
  };
}

/**
 * Records the judged step under `key` and returns its summary, with the model's response when it
 * was not recorded on its own (`response`). A task-mode run's last step writes the run's end in the
 * same transaction when the workflow asked (`runEnd`): one commit, and the message and events are
 * always those of the step recorded first.
 */
async function recordStep(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  step: RunModelStepResult,
  key: string,
  response?: ResponseWrite,
): Promise<RunModelStepResult> {
  const before = response?.records ?? [];
  const parts = { records: [...before, { key, value: step }], ...(response ? { usage: response.usage } : {}) };
  const last = step.toolCalls.length === 0 && step.rejectedCalls.length === 0;
  if (!args.runEnd || !last || !step.assistant) {
    const stored = await deps.conversations.write(args.conversation, parts);
    return await summaryOf(deps, args, stored[before.length] as RunModelStepResult, key);
  }
  const stored = await deps.conversations.writeRunEnd(args.conversation, args.runEnd, runEndOf(args, step), parts);
  const recorded = stored[before.length] as RunModelStepResult;
  return { ...withoutAssistant(recorded, key), conversationId: args.conversation.id, wroteRunEnd: true };
}

/** Where a run's end goes after its last step: the assistant message right after the step's prompt. */
function runEndOf(args: RunModelStepArgs, step: RunModelStepResult) {
  return { from: args.transcriptLength, assistant: step.assistant as ModelMessage, step: args.step, text: step.text };
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

/** A model call as the store records it: the outcome, and the view of the conversation it was sent. */
type RecordedCall = ModelCallOutcome & { context?: StepContext };

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

/**
 * The recorded step as the workflow gets it. A task-mode run's last step (no tool calls) first
 * writes the run's end, when the workflow asked (`runEnd`): the run then ends with nothing to commit.
 */
async function summaryOf(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  recorded: RunModelStepResult,
  key: string,
): Promise<RunModelStepResult> {
  const summary = { ...withoutAssistant(recorded, key), conversationId: args.conversation.id };
  const last = recorded.toolCalls.length === 0 && recorded.rejectedCalls.length === 0;
  if (!args.runEnd || !last || !recorded.assistant) return summary;
  await deps.conversations.writeRunEnd(args.conversation, args.runEnd, runEndOf(args, recorded));
  return { ...summary, wroteRunEnd: true };
}

/** The step as the workflow records it: the assistant message stays in the store under `key`. */
function withoutAssistant(step: RunModelStepResult, key: string): RunModelStepResult {
  const summary: RunModelStepResult = { ...step, assistantKey: key };
  delete summary.assistant;
  return summary;
}

/** `''` for a root run; `research-1:` for `root/research-1`, so approval ids stay unique in a tree. */
export function approvalIdPrefix(workflowId: string, rootWorkflowId?: string): string {
  if (!rootWorkflowId || workflowId === rootWorkflowId || !workflowId.startsWith(`${rootWorkflowId}/`)) return '';
  return `${workflowId.slice(rootWorkflowId.length + 1)}:`;
}

/** The guidance section of each continuable subagent (background runs by default). */
function backgroundGuidance(agent: AnyAgentDefinition): string[] {
  return Object.entries(agent.subagents ?? {})
    .filter(([, subagent]) => (subagent.enableRunInBackground ?? true) && subagent.backgroundMode === 'continuable')
    .map(([toolName]) => continuableGuidance(toolName));
}
