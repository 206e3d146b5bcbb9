import {
  allHandlersFinished,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { AgentActivities } from '../activities/types';
import { AgentLoop } from './agent-loop';
import { AgentState } from './agent-state';
import { registerApprovalHandlers } from './approval-handlers';
import {
  type AgentRunResult,
  type AgentStatusReport,
  type AgentWorkflowInput,
  endSessionSignal,
  sendMessageSignal,
  statusQuery,
  transcriptQuery,
} from './definitions';
import { agentFailure } from './failures';
import { StatusPublisher } from './status-publisher';

const { describeAgent } = proxyActivities<AgentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['ConfigurationError', 'InvalidCallOptions'] },
});

/** Result text of every tool call a cancellation leaves open. */
export const cancelledToolResult = 'Cancelled: the agent run was cancelled before this tool call finished.';

/**
 * One agent run: an inbox, the step loop, and (in session mode) waiting for the next message.
 * Handlers and the loop live in their own modules; this function only wires them together.
 */
export async function agentWorkflow(input: AgentWorkflowInput): Promise<AgentRunResult> {
  const state = AgentState.restore(input.state);
  const status = new StatusPublisher(state);
  setHandler(sendMessageSignal, ({ text }) => state.receive(text));
  setHandler(endSessionSignal, () => {
    state.ended = true;
  });
  setHandler(transcriptQuery, (args) => state.page(args?.from));
  setHandler(statusQuery, () => statusReport(input, state));
  let loop: AgentLoop | undefined;
  registerApprovalHandlers(state, () => loop?.publishWaiting());

  if (!input.state && input.prompt !== undefined) state.receive(input.prompt);
  if (input.mode === 'task' && !state.hasMessages() && !state.activationOpen && state.activations === 0) {
    throw agentFailure(
      'InvalidAgentInput',
      `A task-mode run of agent '${input.agent}' needs a prompt. Pass { prompt } to AgentClient.start, or start it with mode 'session' and send messages.`,
    );
  }

  try {
    const spec = input.spec ?? (await describeAgent({ agent: input.agent, callOptions: input.callOptions }));
    loop = new AgentLoop(input, spec, state, status);
    for (;;) {
      if (!state.activationOpen) {
        if (input.mode === 'task' && state.activations > 0) break;
        if (input.mode === 'session') {
          status.publish('idle', state.lastError);
          await condition(() => state.hasMessages() || state.ended);
          if (!state.hasMessages()) break;
        }
      }
      if ((await loop.runActivation()) === 'continue-as-new') {
        await condition(allHandlersFinished);
        return await continueAsNew<typeof agentWorkflow>({
          ...input,
          prompt: undefined,
          spec,
          state: state.snapshot(),
        });
      }
      if (input.mode === 'task' && state.lastStopReason === 'failed') {
        status.publish('failed', state.lastError);
        throw agentFailure('ModelStepFailed', state.lastError ?? 'The model step failed.');
      }
    }
    status.publish('completed');
    await condition(allHandlersFinished);
    return {
      text: state.lastText,
      stopReason: state.lastStopReason ?? 'completed',
      steps: state.steps,
      usage: state.usage,
    };
  } catch (error) {
    if (isCancellation(error)) {
      await CancellationScope.nonCancellable(async () => {
        state.closeOpenToolCalls(cancelledToolResult);
        state.closeActivation('cancelled');
        status.publish('cancelled');
      });
    }
    throw error;
  }
}

function statusReport(input: AgentWorkflowInput, state: AgentState): AgentStatusReport {
  return {
    agent: input.agent,
    mode: input.mode,
    status: state.status,
    steps: state.steps,
    activations: state.activations,
    pendingMessages: state.inbox.length,
    transcriptLength: state.transcript.length,
    lastText: state.lastText,
    lastStopReason: state.lastStopReason,
    lastError: state.lastError,
    pendingApprovals: state.approvals.pending().length,
    usage: state.usage,
  };
}
