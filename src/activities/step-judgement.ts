import type { ModelMessage, ToolResultPart, ToolSet } from 'ai';
import type { AnyAgentDefinition } from '../agents/agent-definition';
import type { LedgerEntry } from '../store/usage-ledger';
import { type ActivationStep, stepOf } from './activation-steps';
import { policyReadsMessages } from './approval-policy';
import { judgeToolCalls, withApprovalRequests } from './approval-requests';
import type { ModelCallOutcome } from './call-model';
import type { ActivityDependencies } from './dependencies';
import { markClientSideCalls } from './model-tools';
import type { RecordedCall, StepRecord } from './step-call';
import type { StepScene } from './step-scene';
import { parseOutput, stopConditionMet, stopConditionsOf } from './step-settings';
import type { RunModelStepArgs, RunModelStepResult } from './types';
import { stepUsageEntry } from './usage-recording';

/** A model response as it is recorded: its record and the run's budget scopes, and its usage row. */
export type ResponseWrite = { records: StepRecord[]; usage: LedgerEntry };

/** A judged step, and what recording it needs. */
export interface JudgedStep {
  step: RunModelStepResult;
  /** The step's assistant message. */
  assistant: ModelMessage;
  /** The response, when it is to be recorded with the step (no agent code ran on it first). */
  deferred?: ResponseWrite;
  /** The activation's steps with this one, for `onStepFinish` and `onFinish`. */
  steps: () => ActivationStep[];
}

/**
 * Judges a model response: records it first when the agent's own code runs on it (see
 * {@link runsAgentCodeOn}), then decides each call's approval, the stop conditions and the
 * structured output. `response` is the call's own, unrecorded; absent for a recorded one reused.
 */
export async function judgeResponse(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  scene: StepScene,
  called: RecordedCall,
  response: ResponseWrite | undefined,
): Promise<JudgedStep> {
  const { agent, settings } = scene;
  const judgedTools = { ...agent.tools, ...scene.mcpTools };
  const offered = callsOfResponse(called);
  const early = response && runsAgentCodeOn(agent, settings.toolApproval, judgedTools, offered);
  const result = early ? ((await deps.conversations.write(args.conversation, response))[0] as RecordedCall) : called;
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
      messages: scene.messages,
      runtimeContext: scene.runtimeContext,
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
      ...scene.view().steps,
      stepOf(assistant, scene.view().steps.length, result.finishReason, usage, scene.runtimeContext),
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
  return { step, assistant, steps: stepsOf, ...(early ? {} : response ? { deferred: response } : {}) };
}

/** The response's record, its usage row and the run's budget scopes, to write as one transaction. */
export function responseWrite(
  args: RunModelStepArgs,
  called: RecordedCall,
  key: string,
  scopes: StepRecord[],
): ResponseWrite {
  return { records: [{ key, value: called }, ...scopes], usage: stepUsageEntry(args, called, key) };
}

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

/** `''` for a root run; `research-1:` for `root/research-1`, so approval ids stay unique in a tree. */
export function approvalIdPrefix(workflowId: string, rootWorkflowId?: string): string {
  if (!rootWorkflowId || workflowId === rootWorkflowId || !workflowId.startsWith(`${rootWorkflowId}/`)) return '';
  return `${workflowId.slice(rootWorkflowId.length + 1)}:`;
}
