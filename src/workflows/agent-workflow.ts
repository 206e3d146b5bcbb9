import {
  ActivityFailure,
  proxyActivities,
  proxyLocalActivities,
  TimeoutFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type { AgentActivities } from '../activities/types';
import type { DescribedAgentSpec } from '../agents/agent-spec-table';
import type { AgentRunResult, AgentWorkflowInput } from '../protocol/definitions';
import type { CadreErrorType } from '../protocol/error-types';
import type { ActivationOutcome, AgentLoop } from './agent-loop';
import { AgentRun } from './agent-run';
import { agentFailure } from './failures';
import { withScheduleContext } from './schedule-context';

export { interruptedToolResult } from './run-lifecycle';
export { cancelledToolResult } from './agent-run';

/** How long a new run waits for a worker that serves its agent before it fails and says so. */
export const agentWorkerWait = '1 minute';

const describeRetry = {
  maximumAttempts: 5,
  nonRetryableErrorTypes: ['ConfigurationError', 'InvalidCallOptions'] satisfies CadreErrorType[],
};

/**
 * `describeAgentHere` on the workflow's own worker: no activity task, no second workflow task, so
 * the first workflow task goes on to schedule the first model step.
 */
const { describeAgentHere } = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: describeRetry,
});

/** `describeAgent` on the agent's queue, waiting at most {@link agentWorkerWait} for a worker that serves it. */
function describeAgentOn(taskQueue: string) {
  return proxyActivities<AgentActivities>({
    startToCloseTimeout: '30 seconds',
    taskQueue,
    scheduleToStartTimeout: agentWorkerWait,
    retry: describeRetry,
  }).describeAgent;
}

/**
 * One agent run (workflow type `agentWorkflow`, roots and subagents alike): an inbox, the step
 * loop, and (in session mode) waiting for the next message.
 */
export function agentWorkflow(input: AgentWorkflowInput): Promise<AgentRunResult> {
  return runAgent(withScheduleContext(input));
}

/**
 * Runs an agent: its run is built and its handlers registered ({@link AgentRun}), then it carries
 * out its lifecycle's moves ({@link RunLifecycle}) until it finishes, fails or continues as new.
 */
export async function runAgent(input: AgentWorkflowInput): Promise<AgentRunResult> {
  const run = AgentRun.start(input);
  const { state } = run;
  try {
    if (input.mode === 'task' && !state.hasMessages() && !state.activationOpen && state.activations === 0) {
      throw agentFailure(
        'InvalidAgentInput',
        `A task-mode run of agent '${input.agent}' needs a prompt. Pass { prompt } to AgentClient.start, or start it with mode 'session' and send messages.`,
      );
    }
    if (run.move.held && (await run.move.holdIfMoving())) return await run.continueAsNew(true);
    // A subagent's parent passed its spec in the input (so did continue-as-new): no round trip.
    const spec: DescribedAgentSpec = input.spec ?? (await describe(input, run.activityQueue));
    const lifecycle = run.useSpec(spec);
    const loop = run.loop as AgentLoop;
    for (;;) {
      let move = lifecycle.next();
      if (move.kind === 'wait') move = lifecycle.afterWait(move, !(await run.wait(move)));
      if (move.kind === 'continue-as-new') return await run.continueAsNew(move.describeAgain);
      if (move.kind === 'finish') break;
      // The loop runs here, not in a method: each async call costs the sandbox a promise.
      const activation = run.openActivation(spec);
      let outcome: ActivationOutcome;
      try {
        outcome = await activation.scope.run(() => loop.runActivation());
      } catch (error) {
        outcome = run.settleActivation(lifecycle, activation, error);
      }
      run.closeActivation(activation);
      const settled = lifecycle.afterActivation(outcome);
      if (settled.report) await run.reportSettled();
      if (settled.then === 'continue-as-new') return await run.continueAsNew(false);
      if (settled.then === 'fail') return await run.failTask();
    }
    const finishing = run.finish(loop);
    if (finishing) await finishing;
    return lifecycle.result();
  } catch (error) {
    return await run.endAfter(error);
  }
}

/**
 * The agent's spec: from the workflow's own worker when it serves the agent (a local activity),
 * else from a worker that does; a run nobody serves fails with what to start.
 */
async function describe(input: AgentWorkflowInput, activityQueue: string): Promise<DescribedAgentSpec> {
  const args = {
    agent: input.agent,
    callOptions: input.callOptions,
    ...(input.runtimeContext ? { runtimeContext: input.runtimeContext } : {}),
    overrides: input.overrides,
  };
  const here = await describeAgentHere(args);
  if (here.spec) return here.spec;
  try {
    return await describeAgentOn(activityQueue)(args);
  } catch (error) {
    if (error instanceof ActivityFailure && error.cause instanceof TimeoutFailure) {
      throw agentFailure(
        'NoWorkerForAgent',
        `No worker serves agent '${input.agent}': nothing polled its task queue '${activityQueue}' for ${agentWorkerWait}. ` +
          `Start a worker that registers it on task queue '${workflowInfo().taskQueue}': ` +
          `createAgentWorker({ agents: [...] }), or cadre worker --agents ./my-agents.ts (cadre dev with the embedded server).`,
      );
    }
    throw error;
  }
}
