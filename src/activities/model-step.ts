import { Context } from '@temporalio/activity';
import type { ModelMessage } from 'ai';
import { modelResponseKey, modelStepKey } from '../protocol/pending-message';
import { callsOf } from '../protocol/step-calls';
import { rememberTurn } from '../memory/turn-memories';
import { LiveWriter } from './live-writer';
import type { ActivityDependencies } from './dependencies';
import { runStepCallbacks } from './step-settings';
import { keepHeartbeating } from './heartbeat';
import { modelCallFailure } from './provider-errors';
import type { RunModelStepArgs, RunModelStepResult } from './types';
import type { ActivityAttempt } from './in-flight-calls';
import { prepareStepScene, type StepScene } from './step-scene';
import { callModelPhase, type RecordedCall } from './step-call';
import { type JudgedStep, judgeResponse, type ResponseWrite, responseWrite } from './step-judgement';

/**
 * Builds `runModelStep`: one call to the model, in phases. It writes what the workflow decided to
 * the store and returns a step already recorded as it is; else it reads the step's scene
 * ({@link prepareStepScene}), calls the model or reuses a response recorded before
 * ({@link callModelPhase}), judges the response, recording it first when the agent's own code
 * runs on it ({@link judgeResponse}: a retried step reuses it instead of paying twice), then runs
 * the agent's step callbacks and records the judged step ({@link finishStep}).
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
    try {
      const definition = deps.agents.get(args.agent);
      await deps.conversations.applyWrites(args);
      const stepKey = modelStepKey(args.step, args.transcriptLength);
      const recordedStep = await deps.conversations.get<RunModelStepResult>(args.conversation, stepKey);
      if (recordedStep) {
        await pruneLive(deps, live);
        return await summaryOf(deps, args, recordedStep, stepKey);
      }
      const scene = await prepareStepScene(deps, args, definition);
      const responseKey = modelResponseKey(args.step, args.transcriptLength);
      const reused = await deps.conversations.get<RecordedCall>(args.conversation, responseKey);
      let response: ResponseWrite | undefined;
      let called = reused;
      if (!called) {
        const phase = await callModelPhase(deps, args, scene, live, context);
        if ('noCall' in phase) return phase.noCall;
        called = phase.called;
        response = responseWrite(args, called, responseKey, phase.scopes);
      }
      const judged = await judgeResponse(deps, args, scene, called, response);
      const summary = await finishStep(deps, args, scene, judged, stepKey);
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
 * Runs the agent's step callbacks and remembers a final turn, then records the judged step.
 * Callbacks run before the step is recorded: a lost worker calls them again (at least once), a
 * recorded step never.
 */
async function finishStep(
  deps: ActivityDependencies,
  args: RunModelStepArgs,
  scene: StepScene,
  { step, assistant, deferred, steps }: JudgedStep,
  stepKey: string,
): Promise<RunModelStepResult> {
  const hasCalls = step.toolCalls.length > 0 || step.rejectedCalls.length > 0;
  const endsActivation =
    !hasCalls || step.stopped !== undefined || (args.activationStep ?? 0) + 1 >= (args.activationStepLimit ?? Infinity);
  await runStepCallbacks(scene.agent, steps, {
    endsActivation,
    output: step.output,
    step: args.step,
    runtimeContext: scene.runtimeContext,
  });
  if (!hasCalls) await rememberTurn(scene.turn, [...scene.messages, assistant]);
  // The order of calls is needed only when the AI SDK rejected some; otherwise the valid calls give it.
  const calls = step.rejectedCalls.length > 0 ? { calls: callsOf(step) } : {};
  return await recordStep(deps, args, { ...step, ...calls }, stepKey, deferred);
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
