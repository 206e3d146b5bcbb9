import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { CadreError } from '../errors';
import { sendMessageSignal, submitMessageUpdate } from '../protocol/definitions';
import type { PromptPart } from '../protocol/prompt-content';
import { whileRunningMemoKey } from '../protocol/while-running';

/**
 * Delivers a user message: by signal (durable even while no worker runs), or by update to a run
 * whose agent rejects messages mid-turn, so a refusal reaches the caller as `MessageRejected`.
 */
export async function deliverMessage(
  handle: WorkflowHandle,
  message: { text: string; content?: PromptPart[] },
): Promise<void> {
  if (!(await rejectsMidTurn(handle))) {
    await handle.signal(sendMessageSignal, message);
    return;
  }
  await submitMessage(handle, message);
}

/** Delivers a user message through `submitMessageUpdate`: a refusal fails with `MessageRejected`. */
export async function submitMessage(
  handle: WorkflowHandle,
  message: { text: string; content?: PromptPart[] },
): Promise<void> {
  try {
    await handle.executeUpdate(submitMessageUpdate, { args: [message] });
  } catch (error) {
    const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === 'MessageRejected') {
      throw new CadreError('MessageRejected', cause.message, { workflowId: handle.workflowId });
    }
    throw error;
  }
}

/** True when the run is open and published `whileRunning: 'reject'` in its memo (runs of other agents never do). */
export async function rejectsMidTurn(handle: WorkflowHandle): Promise<boolean> {
  const description = await handle.describe();
  return description.status.name === 'RUNNING' && description.memo?.[whileRunningMemoKey] === 'reject';
}
