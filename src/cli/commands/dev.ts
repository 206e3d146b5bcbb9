import type { AnyAgentDefinition } from '../../agents/agent-definition';
import { AgentClient } from '../../client/agent-client';
import { type ChatServer, startChatServer } from '../../chat/chat-server';
import { type AgentWorker, createAgentWorker } from '../../worker/create-agent-worker';
import { highLaneQueue } from '../../protocol/task-queues';
import { createMcpServer } from '../../mcp/mcp-server';
import type { AgentWorkerDeployment } from '../../worker/worker-deployment';
import { ConfigurationError } from '../../errors';
import { cliModels, modelsForTrying } from '../demo-models';
import { openServer } from '../open-server';
import { cadreCommand } from '../../server/command-hints';
import { startDevCodecServer } from '../dev-codec-server';
import { startDevTraces } from '../dev-traces';

/** `cadre dev`: the embedded server with its Web UI plus a worker for `agents`, until Ctrl-C. */
export async function devCommand(
  agents: AnyAgentDefinition[],
  write: (line: string) => void,
  ports: { port?: number; uiPort?: number } = {},
  flags: { traces?: boolean; mcp?: boolean } = {},
): Promise<number> {
  const traces = flags.traces ? await startDevTraces(write) : undefined;
  // The codec server listens first: the embedded UI is started with its address.
  const codec = await startDevCodecServer(write, ports.port === 0 ? 0 : undefined, ports.uiPort);
  const server = await openServer(write, { ...ports, uiCodecEndpoint: codec?.url });
  if (codec && server.external) write(`[cadre] point that server's UI at the codec: --ui-codec-endpoint ${codec.url}`);
  const worker = await createAgentWorker({
    agents,
    address: server.address,
    namespace: server.namespace,
    models: modelsForTrying(write),
    ...(traces ? { telemetry: traces.telemetry } : {}),
  });
  const running = worker.run();
  write(`[cadre] Temporal server: ${server.address} (namespace ${server.namespace})`);
  write(`[cadre] Temporal UI:     ${server.uiUrl ?? '(unknown; set CADRE_UI_URL)'}`);
  write(workerServing(worker));
  const names = worker.agents.names();
  const example = names.includes('assistant') ? 'assistant' : (names[0] ?? '<agent>');
  // Another terminal reaches 127.0.0.1:7233 by default; a server elsewhere needs its address said.
  const address = server.address === '127.0.0.1:7233' ? '' : `TEMPORAL_ADDRESS=${server.address} `;
  write(`[cadre] try: ${address}${cadreCommand(`run ${example} "What time is it in Europe/Paris?"`)}`);
  write(
    `[cadre] your own agents: ${cadreCommand('dev --agents ./my-agents.ts')} (this worker then serves those instead)`,
  );
  // The page's client shares the worker's connection: a new chat's session starts eagerly on this worker.
  const chatClient = AgentClient.fromWorker(worker, {
    uiUrl: server.uiUrl,
    ...(traces ? { telemetry: traces.telemetry } : {}),
  });
  const chatAgents = ['file-manager', 'research'].filter((name) => names.includes(name));
  let chat: ChatServer | undefined;
  try {
    chat = await startChatServer({
      client: chatClient,
      agents: chatAgents.length > 0 ? chatAgents : names,
      ...(flags.mcp ? { mcp: createMcpServer({ client: chatClient, agents: names }) } : {}),
    });
    write(`[cadre] chat page:       ${chat.url}`);
    if (chat.mcpUrl) write(`[cadre] MCP endpoint:    ${chat.mcpUrl} (every agent is a tool; see docs/mcp.md)`);
  } catch (error) {
    // The page is a convenience: the worker serves runs without it.
    write(`[cadre] chat page not served: ${(error as Error).message}`);
  }
  await stopOnSignal(() => worker.shutdown());
  await running;
  await chat?.close();
  await codec?.close();
  await chatClient.close();
  await server.stop();
  await traces?.stop();
  return 0;
}

/**
 * `cadre worker`: a worker for `agents` against TEMPORAL_ADDRESS (or 127.0.0.1:7233), until Ctrl-C.
 * Its models come from the environment only (with `demo:scripted` when CADRE_MODEL chooses it): an
 * agent whose model cannot be resolved stops it at start.
 */
export async function workerCommand(
  agents: AnyAgentDefinition[],
  write: (line: string) => void,
  versioning: WorkerVersioningFlags = {},
): Promise<number> {
  const worker = await createAgentWorker({ agents, models: cliModels(), ...deploymentFrom(versioning) });
  const running = worker.run();
  write(workerServing(worker));
  const { deployment } = worker;
  if (deployment) {
    write(
      `[cadre] build '${deployment.buildId}'${deployment.derived ? ' (derived from the agents)' : ''} of deployment '${deployment.name}': runs are pinned to the build they start on`,
    );
    write(
      `[cadre] once its workers run, make it current: temporal worker deployment set-current-version --deployment-name ${deployment.name} --build-id ${deployment.buildId}`,
    );
  }
  await stopOnSignal(() => worker.shutdown());
  await running;
  return 0;
}

/** `cadre worker --deployment <name> --build-id <id>` (or CADRE_DEPLOYMENT, CADRE_BUILD_ID). */
export interface WorkerVersioningFlags {
  deployment?: string;
  buildId?: string;
}

function deploymentFrom(flags: WorkerVersioningFlags): { deployment?: AgentWorkerDeployment } {
  // An empty variable (CADRE_DEPLOYMENT= in compose) is no value.
  const deployment = flags.deployment || undefined;
  const buildId = flags.buildId || undefined;
  if (deployment === undefined && buildId !== undefined) {
    throw new ConfigurationError(
      `--build-id ${buildId} was given without --deployment. Name the deployment too (--deployment or CADRE_DEPLOYMENT), or drop --build-id to run without Worker Versioning.`,
    );
  }
  return deployment === undefined ? {} : { deployment: { name: deployment, ...(buildId ? { buildId } : {}) } };
}

function stopOnSignal(stop: () => void): Promise<void> {
  return new Promise((resolve) => {
    const handler = () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      stop();
      resolve();
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

/** What the worker serves and where: its agents, its task queue, and the high-priority lane it polls. */
function workerServing(worker: AgentWorker): string {
  const lane = worker.highPriorityLane
    ? ` (sessions on its high-priority lane '${highLaneQueue(worker.taskQueue)}')`
    : '';
  return `[cadre] worker serving: ${worker.agents.names().join(', ')} on task queue '${worker.taskQueue}'${lane}`;
}
