import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ToolResultPart } from 'ai';
import { continuableGuidance } from '../agents/subagent-definition';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { modelResponseKey, modelStepKey } from '../protocol/pending-message';
import { callsOf } from '../protocol/step-calls';
import { callModel, type ModelCallOutcome, type StreamingProgress } from './call-model';
import { judgeToolCalls, withApprovalRequests } from './approval-requests';
import { resolveCallSettings } from './call-settings';
import type { ActivityDependencies } from './dependencies';
import { modelTools } from './model-tools';
import { activationView, stepOf } from './activation-steps';
import {
  composeInstructions,
  outputFormat,
  parseOutput,
  planStep,
  runStepCallbacks,
  stopConditionMet,
} from './step-settings';
import { keepHeartbeating } from './heartbeat';
import { toModelStepFailure } from './provider-errors';
import type { RunModelStepArgs, RunModelStepResult } from './types';
import { recallForTurn, rememberTurn, type TurnContext } from '../memory/turn-memories';
import { memoriesSection } from '../memory/memory-provider';

/**
 * Builds `runModelStep`: one call to the model. On the store it first writes what the workflow
 * decided, reads the prompt, records the provider's response the moment it arrives (a retried
 * step reuses it instead of paying twice), then records the judged step and returns its summary.
 * Runs from before the store read their transcript from the workflow by query.
 */
export function createRunModelStep(deps: ActivityDependencies) {
  return async function runModelStep(args: RunModelStepArgs): Promise<RunModelStepResult> {
    const context = Context.current();
    const progress: StreamingProgress = { step: args.step, text: '' };
    const stopHeartbeat = keepHeartbeating(context, (): StreamingProgress => ({ ...progress }));
    const { conversation } = args;
    try {
      const agent = deps.agents.get(args.agent);
      const model = deps.models.resolve(args.modelRoute);
      await deps.conversations.applyWrites(args);
      const stepKey = modelStepKey(args.step, args.transcriptLength);
      if (conversation) {
        const recorded = await deps.conversations.get<RunModelStepResult>(conversation, stepKey);
        if (recorded) return withoutAssistant(recorded, stepKey);
      }
      const messages = conversation
        ? await deps.conversations.read(conversation, args.transcriptLength)
        : await deps.transcripts.read(args.workflowId, args.runId, args.transcriptLength);
      const settings = await resolveCallSettings(agent, args);
      const tools = modelTools(agent, args.overrides?.toolFilter);
      const responseKey = modelResponseKey(args.step, args.transcriptLength);
      const reused = conversation
        ? await deps.conversations.get<ModelCallOutcome>(conversation, responseKey)
        : undefined;
      const turn: TurnContext = {
        agent,
        conversations: deps.conversations,
        conversation,
        runtimeContext: args.runtimeContext ?? {},
        workflowId: args.workflowId,
        step: args.step,
      };
      const runtimeContext = args.runtimeContext ?? {};
      const view = activationView(messages, args.activationStart ?? messages.length, runtimeContext);
      let called = reused;
      if (!called) {
        const memories = await recallForTurn(turn, messages);
        const plan = await planStep(
          agent,
          {
            model,
            instructions: settings.instructions,
            messages,
            activeTools: agent.activeTools,
            toolChoice: agent.toolChoice,
          },
          { view, runtimeContext, step: args.step, resolve: (route) => deps.models.resolve(route) },
        );
        const outcome = await callModel(
          {
            model: plan.model,
            instructions: composeInstructions(plan.instructions, [
              args.overrides?.persona ?? '',
              ...backgroundGuidance(agent),
              memoriesSection(memories) ?? '',
            ]),
            messages: plan.messages,
            tools,
            activeTools: plan.activeTools,
            toolChoice: plan.toolChoice,
            output: outputFormat(agent),
            settings: { ...settings.modelSettings, ...args.overrides?.modelSettings },
            step: args.step,
            streaming: agent.streaming ?? true,
            progress,
          },
          context,
        );
        called = plan.prepared ? { ...outcome, prepared: plan.prepared } : outcome;
      }
      const result = conversation && !reused ? await deps.conversations.put(conversation, responseKey, called) : called;
      const [assistant, toolMessage] = result.responseMessages;
      if (!assistant || assistant.role !== 'assistant') {
        throw new Error(`The model returned no assistant message (finish reason '${result.finishReason}').`);
      }
      const rejectedCalls =
        toolMessage?.role === 'tool'
          ? toolMessage.content.filter((part): part is ToolResultPart => part.type === 'tool-result')
          : [];
      const toolCalls = await judgeToolCalls(
        result.toolCalls
          .filter((call) => !call.invalid)
          .map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, input: call.input })),
        {
          policy: settings.toolApproval,
          tools: agent.tools ?? {},
          messages,
          runtimeContext: args.runtimeContext ?? {},
          workflowId: args.workflowId,
          idPrefix: approvalIdPrefix(args.workflowId, args.rootWorkflowId),
          step: args.step,
          signer: deps.signer,
        },
      );
      const usage = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
      const hasCalls = toolCalls.length > 0 || rejectedCalls.length > 0;
      const steps = [...view.steps, stepOf(assistant, view.steps.length, result.finishReason, usage, runtimeContext)];
      const stopped = hasCalls && (await stopConditionMet(agent, steps, args.step));
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
      };
      const endsActivation =
        !hasCalls || stopped || (args.activationStep ?? 0) + 1 >= (args.activationStepLimit ?? Infinity);
      // Before the step is recorded: a lost worker calls them again (at least once), a recorded step never.
      await runStepCallbacks(agent, steps, { endsActivation, output, step: args.step, runtimeContext });
      if (!hasCalls) await rememberTurn(turn, [...messages, assistant]);
      if (!conversation) return step;
      // The order of calls is needed only when the AI SDK rejected some; otherwise the valid calls give it.
      const calls = rejectedCalls.length > 0 ? { calls: callsOf(step) } : {};
      const recorded = await deps.conversations.put(conversation, stepKey, { ...step, ...calls });
      return withoutAssistant(recorded, stepKey);
    } catch (error) {
      if (error instanceof ApplicationFailure) throw error;
      if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason ?? error;
      throw toModelStepFailure(error, args.modelRoute, {
        attempt: context.info.attempt,
        maximumAttempts: args.maximumAttempts,
      });
    } finally {
      stopHeartbeat();
    }
  };
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
