import { ActivityCancellationType, isCancellation, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ToolResultPart } from 'ai';
import type { AgentSpec } from '../agents/agent-definition';
import type { AgentActivities, ModelToolCall, RunModelStepResult } from '../activities/types';
import type { AgentState } from './agent-state';
import type { AgentWorkflowInput } from './definitions';
import { describeFailure } from './failures';
import type { StatusPublisher } from './status-publisher';

/** How an activation left the loop: settled (done, failed or out of steps), or at a safe point to continue as new. */
export type ActivationOutcome = 'settled' | 'continue-as-new';

/** Error types that make a model step fail at once instead of retrying. */
export const nonRetryableModelErrors = ['ProviderRequestRejected', 'ConfigurationError'];

/**
 * The step loop: model step, then the step's tool calls concurrently, until a final text or
 * the step limit. A failed tool is an error result the model sees; the loop never fails a task.
 */
export class AgentLoop {
  private stepsThisRun = 0;
  private readonly model;
  private readonly tools;

  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly spec: AgentSpec,
    private readonly state: AgentState,
    private readonly status: StatusPublisher,
  ) {
    this.model = proxyActivities<AgentActivities>({
      startToCloseTimeout: spec.modelStepTimeout,
      heartbeatTimeout: '20 seconds',
      // The workflow waits until the provider call is really aborted before it reports cancelled.
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      retry: { ...spec.modelRetry, nonRetryableErrorTypes: nonRetryableModelErrors },
    });
    this.tools = proxyActivities<AgentActivities>({
      startToCloseTimeout: spec.toolTimeout,
      heartbeatTimeout: '20 seconds',
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      // Tool errors come back as results; retries cover only lost workers and timeouts.
      retry: { maximumAttempts: 3 },
    });
  }

  /** Runs (or resumes) the current activation until it settles or reaches a continue-as-new point. */
  async runActivation(): Promise<ActivationOutcome> {
    const { state, spec } = this;
    if (!state.activationOpen) state.openActivation();
    this.status.publish('running');
    while (state.activationSteps < spec.maxSteps) {
      state.drainInbox();
      const stepNumber = state.steps + 1;
      const promptLength = state.transcript.length;
      let step: RunModelStepResult;
      try {
        step = await this.model.runModelStep.executeWithOptions(
          { summary: `model step ${stepNumber} (${spec.modelRoute})` },
          [
            {
              agent: spec.name,
              modelRoute: spec.modelRoute,
              workflowId: workflowInfo().workflowId,
              runId: workflowInfo().runId,
              step: stepNumber,
              transcriptLength: promptLength,
            },
          ],
        );
      } catch (error) {
        if (isCancellation(error)) throw error;
        state.closeActivation(
          'failed',
          `Model step ${stepNumber} of agent '${spec.name}' failed: ${describeFailure(error)}`,
        );
        return 'settled';
      }
      state.recordModelStep(step);
      if (step.toolCalls.length === 0 && step.rejectedCalls.length === 0) {
        state.closeActivation('completed');
        return 'settled';
      }
      this.status.publish('running', `step ${stepNumber}: ${describeCalls(step)}`);
      await this.runTools(step, promptLength);
      this.stepsThisRun += 1;
      if (this.shouldContinueAsNew()) return 'continue-as-new';
    }
    state.closeActivation('max-steps');
    return 'settled';
  }

  /**
   * Runs the step's calls concurrently and records their results. On cancellation the calls
   * that did finish keep their real results; the workflow closes the rest.
   */
  private async runTools(step: RunModelStepResult, promptLength: number): Promise<void> {
    const outputs = new Map<string, ToolResultPart['output']>();
    const settled = await Promise.allSettled(
      step.toolCalls.map(async (call) => {
        try {
          const result = await this.tools.runTool.executeWithOptions({ summary: toolSummary(call) }, [
            {
              agent: this.spec.name,
              workflowId: workflowInfo().workflowId,
              runId: workflowInfo().runId,
              promptLength,
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              input: call.input,
            },
          ]);
          outputs.set(call.toolCallId, result.output);
        } catch (error) {
          if (isCancellation(error)) throw error;
          outputs.set(call.toolCallId, {
            type: 'error-text',
            value: `Tool '${call.toolName}' failed: ${describeFailure(error)}`,
          });
        }
      }),
    );
    this.state.recordToolResults(step, outputs);
    const cancelled = settled.find((outcome) => outcome.status === 'rejected');
    if (cancelled) throw cancelled.reason;
  }

  private shouldContinueAsNew(): boolean {
    const every = this.input.continueAsNewEverySteps;
    return workflowInfo().continueAsNewSuggested || (every !== undefined && this.stepsThisRun >= every);
  }
}

function describeCalls(step: RunModelStepResult): string {
  const names = [
    ...step.toolCalls.map((call) => call.toolName),
    ...step.rejectedCalls.map((part) => `${part.toolName} (rejected)`),
  ];
  return `${names.length} tool call${names.length === 1 ? '' : 's'}: ${names.join(', ')}`;
}

function toolSummary(call: ModelToolCall): string {
  const input = JSON.stringify(call.input) ?? '';
  return `tool ${call.toolName}(${input.length > 60 ? `${input.slice(0, 57)}...` : input})`;
}
