import { exampleAgents } from '../../../examples';
import { AgentClient } from '../../client/agent-client';
import { createAgentWorker } from '../../worker/create-agent-worker';
import { openServer } from '../open-server';
import { promptForApprovals } from '../approval-prompter';
import { followEvents } from '../event-printer';

/** The default prompt of `npm start`. */
export const defaultStartPrompt = 'What time is it in Asia/Tokyo? Also count the words of this question.';

/**
 * `cadre start` (what `npm start` runs): one example agent end to end on the embedded server,
 * printing each step, the final answer and the run's Temporal UI link; exits when done.
 */
export async function startCommand(prompt: string | undefined, write: (line: string) => void): Promise<number> {
  const server = await openServer(write);
  const worker = await createAgentWorker({
    agents: exampleAgents,
    address: server.address,
    namespace: server.namespace,
  });
  const running = worker.run();
  const client = await AgentClient.connect({
    address: server.address,
    namespace: server.namespace,
    uiUrl: server.uiUrl,
  });
  try {
    const route = worker.agents.spec('assistant').modelRoute;
    write(
      `[cadre] agent 'assistant' on model ${route}${route.startsWith('demo:') ? ' (offline scripted demo, not an LLM; set OPENAI_API_KEY, ANTHROPIC_API_KEY or CADRE_OPENAI_COMPATIBLE_BASE_URL for a real model)' : ''}`,
    );
    const handle = await client.start('assistant', { prompt: prompt ?? defaultStartPrompt });
    write(`[cadre] workflow ${handle.workflowId}`);
    const result = handle.result();
    await Promise.all([followEvents(handle, write), promptForApprovals(handle, result, write)]);
    const { text, steps, stopReason } = await result;
    write('');
    write(`Final answer (${steps} steps, ${stopReason}):`);
    write(text);
    write('');
    write(`Temporal UI: ${handle.uiUrl() ?? '(UI address unknown; set CADRE_UI_URL)'}`);
    if (!server.external)
      write(
        '(The server stops with this command; `npm run dev` serves the UI again, with this run kept in .cadre/data.)',
      );
    return 0;
  } finally {
    worker.shutdown();
    await running;
    await client.close();
    await server.stop();
  }
}
