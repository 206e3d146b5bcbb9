import { condition, defineUpdate, executeChild, proxyActivities, setHandler } from '@temporalio/workflow';
import type { FloorActivities } from './floor-activities';

const { floorChatModel, floorModel, floorTool } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

/** Approves the one call a floor approval workflow waits for. */
export const floorApproveUpdate = defineUpdate<void>('floorApprove');

/**
 * The floor of a model step: an activity for the model and one for the tool, `steps` times; with
 * `finalAnswer`, then the model activity once more, as an agent's last step.
 */
export async function floorStepsWorkflow(steps: number, finalAnswer = false): Promise<void> {
  for (let step = 0; step < steps; step++) {
    await floorModel(0);
    await floorTool('step');
  }
  if (finalAnswer) await floorModel(0);
}

/** The floor of subagents: a model activity, `children` child workflows at once, a model activity. */
export async function floorFanoutWorkflow(children: number, childLatencyMs: number): Promise<void> {
  await floorModel(0);
  await Promise.all(
    Array.from({ length: children }, () => executeChild(floorChildWorkflow, { args: [childLatencyMs] })),
  );
  await floorModel(0);
}

/** A child of the floor fanout: one model activity of the given latency. */
export async function floorChildWorkflow(latencyMs: number): Promise<void> {
  await floorModel(latencyMs);
}

/**
 * The floor of an approval: wait for an update, run the tool activity, then the model activity
 * that answers with the tool's result, as the agent it is measured against does after its tool.
 */
export async function floorApprovalWorkflow(id: string): Promise<void> {
  let approved = false;
  setHandler(floorApproveUpdate, () => {
    approved = true;
  });
  await condition(() => approved);
  await floorTool(id);
  await floorModel(0);
}

/**
 * The floor of a session waiting for a human after its model asked for a tool: a model activity,
 * then the wait for an update, then the tool activity.
 */
export async function floorSessionWorkflow(id: string): Promise<void> {
  await floorModel(0);
  await floorApprovalWorkflow(id);
}

/** Wakes a floor chat session with the next user message. */
export const floorMessageUpdate = defineUpdate<void>('floorMessage');

/**
 * The floor of a chat session: one model activity per user message (its start noted as
 * `<id>:<turn>`), waiting for the next message in between, for as long as it runs.
 */
export async function floorChatWorkflow(id: string): Promise<void> {
  let messages = 1;
  setHandler(floorMessageUpdate, () => {
    messages += 1;
  });
  for (let turn = 1; ; turn++) {
    await floorChatModel(`${id}:${turn}`);
    await condition(() => messages > turn);
  }
}
