import { AgentClient } from '../../client/agent-client';
import { ConfigurationError } from '../../errors';
import { defaultUiUrl } from '../open-server';
import { type Printer } from '../printer';
import { watchRun } from '../watch-run';
import { cadreCommand } from '../../server/command-hints';

/** `cadre run <agent> "<prompt>"`: starts a run on a running worker, prints its steps, answer and UI link. */
export async function runCommand(
  agent: string,
  prompt: string,
  printer: Printer,
  runtimeContext?: Record<string, unknown>,
): Promise<number> {
  const client = await AgentClient.connect({
    uiUrl: process.env.CADRE_UI_URL ?? (process.env.TEMPORAL_ADDRESS ? undefined : defaultUiUrl),
  });
  try {
    const workers = await client.workersFor(agent);
    if (workers === 0) {
      throw new ConfigurationError(
        `No worker serves agent '${agent}' on task queue '${client.taskQueue}'. Start one that registers it: ` +
          `${cadreCommand('dev --agents ./my-agents.ts')} (or ${cadreCommand('worker --agents ./my-agents.ts')}), then run this again.`,
      );
    }
    const handle = await client.start(agent, { prompt, runtimeContext });
    printer.line(`[cadre] workflow ${handle.workflowId}`);
    return await watchRun(client, handle, printer);
  } finally {
    await client.close();
  }
}
