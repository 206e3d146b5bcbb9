import { exampleAgents } from '../../../examples';
import { AgentClient } from '../../client/agent-client';
import { createAgentWorker } from '../../worker/create-agent-worker';
import { modelsForTrying } from '../demo-models';
import { dataFolder, openServer } from '../open-server';
import type { Printer } from '../printer';
import { watchRun } from '../watch-run';
import { cadreCommand } from '../../server/command-hints';

/** The default prompt of `npm start`. */
export const defaultStartPrompt = 'What time is it in Asia/Tokyo? Also count the words of this question.';

/**
 * `cadre start` (what `npm start` runs): one example agent end to end on the embedded server,
 * printing each step, the final answer and the run's Temporal UI link; exits when done.
 */
export async function startCommand(prompt: string | undefined, printer: Printer): Promise<number> {
  const write = printer.line;
  const server = await openServer(write);
  const worker = await createAgentWorker({
    agents: exampleAgents,
    address: server.address,
    namespace: server.namespace,
    models: modelsForTrying(write),
  });
  const running = worker.run();
  const client = await AgentClient.connect({
    address: server.address,
    namespace: server.namespace,
    uiUrl: server.uiUrl,
  });
  try {
    write(`[cadre] agent 'assistant' on model ${worker.agents.spec('assistant').modelRoute}`);
    const handle = await client.start('assistant', { prompt: prompt ?? defaultStartPrompt });
    write(`[cadre] workflow ${handle.workflowId}`);
    const code = await watchRun(client, handle, printer);
    if (!server.external)
      write(
        `(The server stops with this command; \`${cadreCommand('dev')}\` serves the UI again, with this run kept in ${dataFolder()}.)`,
      );
    return code;
  } finally {
    worker.shutdown();
    await running;
    await client.close();
    await server.stop();
  }
}
