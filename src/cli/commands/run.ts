import { AgentClient } from '../../client/agent-client';
import { defaultUiUrl } from '../open-server';
import { promptForApprovals } from '../approval-prompter';
import { followEvents } from '../event-printer';

/** `cadre run <agent> "<prompt>"`: starts a run on a running worker, prints its steps, answer and UI link. */
export async function runCommand(
  agent: string,
  prompt: string,
  write: (line: string) => void,
  runtimeContext?: Record<string, unknown>,
): Promise<number> {
  const client = await AgentClient.connect({
    uiUrl: process.env.CADRE_UI_URL ?? (process.env.TEMPORAL_ADDRESS ? undefined : defaultUiUrl),
  });
  try {
    const handle = await client.start(agent, { prompt, runtimeContext });
    write(`[cadre] workflow ${handle.workflowId}`);
    const result = handle.result();
    await Promise.all([followEvents(handle, write), promptForApprovals(handle, result, write)]);
    try {
      const { text, steps, stopReason } = await result;
      write('');
      write(`Final answer (${steps} steps, ${stopReason}):`);
      write(text);
      return 0;
    } catch (error) {
      const cause = (error as { cause?: Error }).cause;
      write(`The run failed: ${cause?.message ?? (error as Error).message}`);
      return 1;
    } finally {
      write(`Temporal UI: ${handle.uiUrl() ?? '(set CADRE_UI_URL to get a link)'}`);
    }
  } finally {
    await client.close();
  }
}
