import { type ChildProcess, spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { createMcpServer, type CadreMcpServer, tasksExtension } from '../../src/mcp/mcp-server';
import { idempotentRunId, userRunPrefix } from '../../src/mcp/run-task';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';

/** Each run of the approved tool, by its input: an approved call runs once, a denied one never. */
const deployed: string[] = [];
const deploy = tool({
  description: 'Deploys a version.',
  inputSchema: z.object({ version: z.string() }),
  needsApproval: true,
  execute: async ({ version }) => {
    deployed.push(version);
    return `deployed ${version}`;
  },
});

const agents = [
  defineAgent({ name: 'mcp-helper', model: reactiveModel('Paris is the capital of France.') }),
  defineAgent({
    name: 'mcp-slow',
    model: reactiveModel(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return 'slow answer';
    }),
  }),
  defineAgent({
    name: 'mcp-deployer',
    tools: { deploy },
    model: reactiveModel(
      (options) => ({
        toolCalls: [
          { toolName: 'deploy', input: { version: JSON.stringify(options.prompt).includes('v2') ? 'v2' : 'v1' } },
        ],
      }),
      (options) => `deployer: ${lastToolResult(options)}`,
    ),
  }),
  defineAgent({
    name: 'mcp-lead',
    subagents: { release: { agent: 'mcp-deployer', description: 'Releases a version.' } },
    model: reactiveModel(
      (options) => ({
        toolCalls: [
          {
            toolName: 'release',
            input: { task: JSON.stringify(options.prompt).includes('v2') ? 'ship v2' : 'ship v1' },
          },
        ],
      }),
      (options) => `lead: ${lastToolResult(options)}`,
    ),
  }),
];

const taskSchema = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  inputRequests: z
    .record(z.string(), z.looseObject({ method: z.string(), params: z.looseObject({ message: z.string() }) }))
    .optional(),
  result: z
    .looseObject({ content: z.array(z.looseObject({ text: z.string() })), isError: z.boolean().optional() })
    .optional(),
});
const taskOrResult = z.union([taskSchema, z.looseObject({ content: z.array(z.unknown()) })]);
const empty = z.looseObject({});

/**
 * The SDK's client (2.4.0) decodes no `resultType: 'task'` yet: its transport hands the task on as a
 * complete result, so `request()` returns it. Everything else is the SDK's client as it is.
 */
function taskAware(transport: StreamableHTTPClientTransport): StreamableHTTPClientTransport {
  let downstream: ((message: never, extra?: never) => void) | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => downstream,
    set: (receive: ((message: never, extra?: never) => void) | undefined) => {
      downstream =
        receive &&
        ((message: never, extra?: never) => {
          const result = (message as { result?: { resultType?: string } }).result;
          receive(
            (result?.resultType === 'task'
              ? { ...(message as object), result: { ...result, resultType: 'complete' } }
              : message) as never,
            extra,
          );
        });
    },
  });
  return transport;
}

async function connect(url: string, options: { token?: string; tasks?: boolean } = {}): Promise<Client> {
  const client = new Client(
    { name: 'cadre-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: 'auto' },
      capabilities: { ...(options.tasks ? { extensions: { [tasksExtension]: {} } } : {}), elicitation: { form: {} } },
    },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${options.token ?? 'alice-token'}` } },
  });
  await client.connect(options.tasks ? taskAware(transport) : transport);
  return client;
}

/** An MCP server in a process of its own (test/mcp/mcp-server-process.ts), once it listens. */
function startServerProcess(taskQueue: string): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'mcp-server-process.ts'), testAddress(), testNamespace(), taskQueue],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const url = /url (\S+)/.exec(chunk.toString())?.[1];
      if (url) resolve({ process: child, url });
    });
    child.on('exit', (code) => reject(new Error(`the MCP server process exited with ${code}`)));
  });
}

const users: Record<string, string> = { 'alice-token': 'alice', 'bob-token': 'bob', 'carol-token': 'carol' };
const authorize = (request: IncomingMessage) => {
  const user = users[(request.headers.authorization ?? '').replace(/^Bearer /, '')];
  return user ? { id: user } : undefined;
};

async function callAsTask(client: Client, name: string, prompt: string) {
  const created = await client.request({ method: 'tools/call', params: { name, arguments: { prompt } } }, taskOrResult);
  expect(created).toHaveProperty('taskId');
  return created as z.infer<typeof taskSchema>;
}

async function pollTask(client: Client, taskId: string, until: (task: z.infer<typeof taskSchema>) => boolean) {
  let task = await client.request({ method: 'tasks/get', params: { taskId } }, taskSchema);
  await waitFor(async () => {
    task = await client.request({ method: 'tasks/get', params: { taskId } }, taskSchema);
    return until(task);
  }, `task ${taskId} to reach the state the test waits for`);
  return task;
}

describe('Cadre agents over MCP', () => {
  let env: AgentTestEnv;
  let server: CadreMcpServer;
  let url: string;
  beforeAll(async () => {
    // A local call holds its run's workflow task, and with it the status that progress reports,
    // for at most the hand-off window: mcp-slow's 1.5 s step outlives a 500 ms window.
    env = await startAgentTestEnv(agents, { localActivities: { handOffAfterMs: 500 } });
    server = createMcpServer({
      client: env.client,
      agents: ['mcp-helper', 'mcp-slow', 'mcp-lead', { name: 'mcp-deployer', description: 'Deploys a version.' }],
      authorize,
      pollIntervalMs: 100,
    });
    url = await server.listen();
  });
  afterAll(async () => {
    await server?.close();
    await env?.stop();
  });
  beforeEach(() => {
    deployed.length = 0;
  });

  it('lists each agent as a tool with a prompt, and gives a task-capable client a task that completes with the answer', async () => {
    const client = await connect(url, { tasks: true });
    const { tools } = await client.listTools();
    expect(tools.map((entry) => entry.name).sort()).toEqual(['mcp-deployer', 'mcp-helper', 'mcp-lead', 'mcp-slow']);
    expect(tools.find((entry) => entry.name === 'mcp-deployer')?.description).toBe('Deploys a version.');
    expect(tools[0]?.inputSchema.required).toEqual(['prompt']);
    const created = await callAsTask(client, 'mcp-helper', 'What is the capital of France?');
    expect(created.taskId).toMatch(/^mcp-[0-9a-f]{12}-mcp-helper-/);
    const done = await pollTask(client, created.taskId, (task) => task.status === 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'Paris is the capital of France.' }] });
    // The task is the run: its id is the workflow id.
    expect((await env.client.getHandle(created.taskId).result()).text).toBe('Paris is the capital of France.');
    await client.close();
  });

  it.each([
    ['accepts', true, ['v2'], 'lead: deployer: deployed v2'],
    ['declines', false, [], 'lead: deployer: '],
  ])(
    'asks for an approval inside a subagent as input_required; the client %s the elicitation and the task completes',
    async (_label, approve, runs, answer) => {
      const client = await connect(url, { tasks: true });
      const created = await callAsTask(client, 'mcp-lead', 'release v2');
      const waiting = await pollTask(client, created.taskId, (task) => task.status === 'input_required');
      const [approvalId, request] = Object.entries(waiting.inputRequests ?? {})[0]!;
      expect(request.method).toBe('elicitation/create');
      expect(request.params.message).toContain(`Approve the call to tool 'deploy' with input {"version":"v2"}`);
      await client.request(
        {
          method: 'tasks/update',
          params: {
            taskId: created.taskId,
            inputResponses: { [approvalId]: { action: 'accept', content: { approve } } },
          },
        } as never,
        empty,
      );
      const done = await pollTask(client, created.taskId, (task) => task.status === 'completed');
      expect(done.result?.content[0]?.text).toContain(answer);
      expect(deployed).toEqual(runs);
      const decided = (await env.client.getHandle(`${created.taskId}/release-1`).approvals()).requests[0];
      expect(decided?.decision?.by).toBe('alice');
      await client.close();
    },
  );

  it('cancels the run and its children with tasks/cancel', async () => {
    const client = await connect(url, { tasks: true });
    const created = await callAsTask(client, 'mcp-lead', 'release v1');
    await pollTask(client, created.taskId, (task) => task.status === 'input_required');
    await client.request({ method: 'tasks/cancel', params: { taskId: created.taskId } }, empty);
    const cancelled = await pollTask(client, created.taskId, (task) => task.status === 'cancelled');
    expect(cancelled.status).toBe('cancelled');
    // The cancellation reached the subagent waiting for its approval.
    const child = env.client.client.workflow.getHandle(`${created.taskId}/release-1`);
    await waitFor(async () => (await child.describe()).status.name !== 'RUNNING', 'the subagent to stop');
    expect((await child.describe()).status.name).toBe('CANCELLED');
    expect(deployed).toEqual([]);
    await client.close();
  });

  it('answers tasks/get from a new server process, after the one that created the task was killed, and the task completes', async () => {
    const first = await startServerProcess(env.worker.taskQueue);
    const client = await connect(first.url, { tasks: true });
    const created = await callAsTask(client, 'mcp-slow', 'take your time');
    first.process.kill('SIGKILL');
    await client.close().catch(() => undefined);
    const second = await startServerProcess(env.worker.taskQueue);
    try {
      const again = await connect(second.url, { tasks: true });
      const done = await pollTask(again, created.taskId, (task) => task.status === 'completed');
      expect(done.result?.content[0]?.text).toBe('slow answer');
      await again.close();
    } finally {
      second.process.kill('SIGTERM');
    }
  });

  it('gives a client without tasks the answer on the same call with progress, and a retried call does not start a second run', async () => {
    const client = await connect(url);
    const progress: string[] = [];
    const key = `retry-${Date.now()}`;
    const call = { name: 'mcp-slow', arguments: { prompt: 'take your time', idempotencyKey: key } };
    const result = await client.callTool(call, { onprogress: (update) => progress.push(String(update.message)) });
    expect(result.content).toEqual([{ type: 'text', text: 'slow answer' }]);
    expect(progress).toContainEqual(expect.stringMatching(/^running, step 0/));
    const run = env.client.client.workflow.getHandle(idempotentRunId('alice', 'mcp-slow', key));
    const first = await run.describe();
    // The same call again, as a client that lost the answer would send it: the same run answers.
    const again = await client.callTool(call);
    expect(again.content).toEqual([{ type: 'text', text: 'slow answer' }]);
    expect((await run.describe()).runId).toBe(first.runId);
    await client.close();
  });

  it('asks a client without tasks for an approval as an elicitation, and runs the tool once it accepts', async () => {
    const client = await connect(url);
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return { action: 'accept', content: { approve: true } };
    });
    const result = await client.callTool({ name: 'mcp-deployer', arguments: { prompt: 'deploy v2' } });
    expect(result.content).toEqual([{ type: 'text', text: 'deployer: deployed v2' }]);
    expect(asked).toEqual([expect.stringContaining('Approve the call to tool \'deploy\' with input {"version":"v2"}')]);
    expect(deployed).toEqual(['v2']);
    await client.close();
  });

  it('refuses a request tied to no user with 401, before any run', async () => {
    const refusal = await connect(url, { token: 'stolen' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SdkHttpError);
    expect((refusal as SdkHttpError).data).toMatchObject({ status: 401 });
  });

  it("answers another user's task as unknown", async () => {
    const alice = await connect(url, { tasks: true });
    const created = await callAsTask(alice, 'mcp-helper', 'hello');
    const bob = await connect(url, { token: 'bob-token', tasks: true });
    await expect(bob.request({ method: 'tasks/get', params: { taskId: created.taskId } }, taskSchema)).rejects.toThrow(
      `Unknown task: ${created.taskId}`,
    );
    await Promise.all([alice.close(), bob.close()]);
  });

  it('refuses an unknown agent and a missing prompt with a clear error, and starts no run', async () => {
    const client = await connect(url, { token: 'carol-token' });
    await expect(client.callTool({ name: 'nosuch', arguments: { prompt: 'x' } })).rejects.toThrow(
      'Tool nosuch not found',
    );
    const missing = await client.callTool({ name: 'mcp-helper', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(missing.content).toEqual([
      {
        type: 'text',
        text: 'Input validation error: Invalid arguments for tool mcp-helper: prompt: Invalid input: expected string, received undefined',
      },
    ]);
    // A call that does start a run is listed within moments; these started none.
    await client.callTool({ name: 'mcp-helper', arguments: { prompt: 'hello' } });
    const carol = `WorkflowId STARTS_WITH '${userRunPrefix('carol')}'`;
    await waitFor(async () => (await env.client.client.workflow.count(carol)).count > 0, "carol's one run");
    expect((await env.client.client.workflow.count(carol)).count).toBe(1);
    await client.close();
  });
});
