import { Context } from '@temporalio/activity';
import type { ToolResultPart } from 'ai';
import { continuableGuidance } from '../agents/subagent-definition';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import { callModel } from './call-model';
import { judgeToolCalls, withApprovalRequests } from './approval-requests';
import { resolveCallSettings } from './call-settings';
import type { ActivityDependencies } from './dependencies';
import { modelTools } from './model-tools';
import { keepHeartbeating } from './heartbeat';
import { toModelStepFailure } from './provider-errors';
import type { RunModelStepArgs, RunModelStepResult } from './types';

/** Builds `runModelStep`: one call to the model with the transcript read from the workflow. */
export function createRunModelStep(deps: ActivityDependencies) {
  return async function runModelStep(args: RunModelStepArgs): Promise<RunModelStepResult> {
    const context = Context.current();
    const stopHeartbeat = keepHeartbeating(context, { step: args.step });
    try {
      const agent = deps.agents.get(args.agent);
      const model = deps.models.resolve(args.modelRoute);
      const messages = await deps.transcripts.read(args.workflowId, args.runId, args.transcriptLength);
      const settings = await resolveCallSettings(agent, args);
      const tools = modelTools(agent, args.overrides?.toolFilter);
      const result = await callModel(
        {
          model,
          instructions:
            [settings.instructions, args.overrides?.persona, ...backgroundGuidance(agent)]
              .filter(Boolean)
              .join('\n\n') || undefined,
          messages,
          tools,
          settings: { ...settings.modelSettings, ...args.overrides?.modelSettings },
          step: args.step,
          streaming: agent.streaming ?? true,
        },
        context,
      );
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
      return {
        assistant: withApprovalRequests(assistant, toolCalls),
        toolCalls,
        rejectedCalls,
        text: result.text,
        finishReason: result.finishReason,
        usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
      };
    } catch (error) {
      if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason ?? error;
      throw toModelStepFailure(error, args.modelRoute);
    } finally {
      stopHeartbeat();
    }
  };
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
