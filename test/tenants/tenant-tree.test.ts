import { Context } from '@temporalio/activity';
import type { Priority } from '@temporalio/common';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { AgentClient } from '../../src/client/agent-client';
import { type CadreError, ConfigurationError } from '../../src/errors';
import { tenantKey } from '../../src/protocol/search-attributes';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { runCadre } from '../helpers/cli-process';
import { testAddress, testNamespace } from '../helpers/temporal';
import { lastToolResult, reactiveModel } from '../helpers/scripted-model';

/** The priority every call of the tool saw, as its worker received it from matching. */
const seen: (Priority | undefined)[] = [];
const whoAmI = tool({
  description: 'Reports the task it ran in.',
  inputSchema: z.object({}),
  execute: async () => {
    // Unset fields arrive as '' and 0: keep only those set.
    const { priorityKey, fairnessKey, fairnessWeight } = Context.current().info.priority ?? {};
    seen.push({
      ...(priorityKey ? { priorityKey } : {}),
      ...(fairnessKey ? { fairnessKey } : {}),
      ...(fairnessWeight ? { fairnessWeight } : {}),
    });
    return 'ok';
  },
});
const delegate = (toolName: string, background = false) => ({
  toolCalls: [{ toolName, input: { task: 'go', ...(background ? { run_in_background: true } : {}) } }],
});

const agents = [
  defineAgent({
    name: 'tenant-top',
    model: reactiveModel(delegate('down'), (options) => `top: ${lastToolResult(options)}`),
    subagents: { down: { agent: 'tenant-middle', description: 'Goes down.', maxDepth: 2 } },
  }),
  defineAgent({
    name: 'tenant-middle',
    model: reactiveModel(delegate('down'), (options) => `middle: ${lastToolResult(options)}`),
    subagents: { down: { agent: 'tenant-leaf', description: 'Goes down.', maxDepth: 2 } },
  }),
  defineAgent({
    name: 'tenant-batch',
    model: reactiveModel(delegate('job', true), 'started the job'),
    subagents: { job: { agent: 'tenant-leaf', description: 'A job.' } },
  }),
  defineAgent({
    name: 'tenant-leaf',
    tools: { whoAmI },
    model: reactiveModel(
      { toolCalls: [{ toolName: 'whoAmI', input: {} }] },
      (options) => `leaf: ${lastToolResult(options)}`,
    ),
  }),
];

describe('a run started for a tenant', () => {
  let env: AgentTestEnv;
  let client: AgentClient;
  beforeAll(async () => {
    // Every task through matching, where fairness and priority apply: a task the server hands out
    // eagerly skips the queue and reaches the worker without its priority. Every call is a task of
    // its own: local calls (the default for task runs) run inside the workflow task, whose priority
    // is the run's.
    env = await startAgentTestEnv(agents, {
      localActivities: false,
      workerOptions: { maxEagerActivityReservationsPerWorkflowTask: 0 },
    });
    client = AgentClient.fromClient(env.client.client, {
      taskQueue: env.worker.taskQueue,
      tenant: (context) =>
        typeof context?.org === 'string' ? { id: context.org, weight: context.org === 'acme' ? 3 : 1 } : undefined,
    });
  });
  afterAll(async () => {
    await env.stop();
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it("carries the tenant from the client's tenant function to every task of a two-level tree", async () => {
    const handle = await client.start('tenant-top', { prompt: 'go', runtimeContext: { org: 'acme' } });
    expect((await handle.result()).text).toBe('top: middle: leaf: ok');
    // The leaf's tool, two children down, ran with the tenant as its fairness key and the root's priority.
    expect(seen).toEqual([{ priorityKey: 3, fairnessKey: 'acme', fairnessWeight: 3 }]);
    const children = await handle.children();
    const middle = env.client.client.workflow.getHandle(children[0]!.workflowId);
    const grandchildren = await env.client.getHandle(children[0]!.workflowId).children();
    for (const run of [handle.workflowId, middle.workflowId, grandchildren[0]!.workflowId]) {
      const description = await env.client.client.workflow.getHandle(run).describe();
      expect([run, description.typedSearchAttributes.get(tenantKey)]).toEqual([run, 'acme']);
    }
    expect((await handle.status()).tenant).toBe('acme');
  });

  it("runs a background job after people's turns: low priority, the same tenant", async () => {
    const handle = await client.start('tenant-batch', { prompt: 'go', runtimeContext: { org: 'acme' } });
    await handle.result();
    expect(seen).toEqual([{ priorityKey: 4, fairnessKey: 'acme', fairnessWeight: 3 }]);
  });

  it('starts a session ahead of task runs, and takes a tenant given at start over the function', async () => {
    const session = await client.start('tenant-leaf', {
      mode: 'session',
      tenant: 'globex',
      runtimeContext: { org: 'acme' },
    });
    await session.send('go');
    await (async () => {
      for (let tries = 0; tries < 200 && seen.length === 0; tries++) await new Promise((r) => setTimeout(r, 50));
    })();
    expect(seen).toEqual([{ priorityKey: 2, fairnessKey: 'globex' }]);
    await session.end();
  });

  it('runs without a tenant as before: no fairness key, no CadreTenant', async () => {
    const handle = await client.start('tenant-leaf', { prompt: 'go' });
    await handle.result();
    expect(seen).toEqual([{ priorityKey: 3 }]);
    const description = await env.client.client.workflow.getHandle(handle.workflowId).describe();
    expect(description.typedSearchAttributes.get(tenantKey)).toBeUndefined();
  });

  it("refuses a tenant's run past its maxActiveRuns with TenantAtCapacity, and starts another tenant's", async () => {
    // Its own tenant each run: a server that keeps its data (the cluster) may still hold an earlier run's sessions.
    const tenant = `capped-${Date.now()}`;
    const capped = AgentClient.fromClient(env.client.client, {
      taskQueue: env.worker.taskQueue,
      tenantLimits: { maxActiveRuns: (given) => (given.id === tenant ? 2 : undefined) },
    });
    const open = [
      await capped.start('tenant-leaf', { mode: 'session', tenant }),
      await capped.start('tenant-leaf', { mode: 'session', tenant }),
    ];
    // Visibility lists a started run within moments: the third start waits for nothing, it is refused.
    let refusal: unknown;
    for (let tries = 0; tries < 100 && refusal === undefined; tries++) {
      refusal = await capped
        .start('tenant-leaf', { mode: 'session', tenant })
        .then(async (extra) => {
          await extra.end();
          await new Promise((resolve) => setTimeout(resolve, 50));
          return undefined;
        })
        .catch((error: unknown) => error);
    }
    expect((refusal as CadreError).type).toBe('TenantAtCapacity');
    // Visibility may still list an extra run that just ended (SQL visibility on the cluster lags): 2 or more.
    const message = (refusal as CadreError).message;
    const count = Number(/has (\d+) active runs/.exec(message)?.[1]);
    expect(count).toBeGreaterThanOrEqual(2);
    expect(message).toBe(
      `Tenant '${tenant}' has ${count} active runs, its limit (tenantLimits.maxActiveRuns: 2); nothing was started. ` +
        'Start it again once one of them has ended, or raise the limit.',
    );
    const other = await capped.start('tenant-leaf', { mode: 'session', tenant: 'free' });
    await Promise.all([...open, other].map((handle) => handle.end()));
  });

  it("adds up a tenant's usage over its runs and their subagents, and no other tenant's", async () => {
    const tenant = `usage-${Date.now()}`;
    const runs = await Promise.all([
      client.start('tenant-top', { prompt: 'go', tenant }),
      client.start('tenant-leaf', { prompt: 'go', tenant }),
      client.start('tenant-leaf', { prompt: 'go', tenant: `${tenant}-other` }),
    ]);
    await Promise.all(runs.map((handle) => handle.result()));
    // The usage ledger recorded each step with its tenant as the step completed.
    const usage = await env.client.tenantUsage(tenant);
    // tenant-top, tenant-middle and tenant-leaf take 2 model steps each; the lone leaf 2 more.
    expect(usage.total.modelCalls).toBe(8);
    expect(Object.keys(usage.byRun).sort()).toHaveLength(4);
    expect(Object.keys(usage.byRun)).not.toContain(runs[2]!.workflowId);
    expect(Object.keys(usage.byAgent).sort()).toEqual(['tenant-leaf', 'tenant-middle', 'tenant-top']);
    expect((await env.client.tenantUsage(tenant, { since: new Date(Date.now() + 60_000) })).total.modelCalls).toBe(0);
    const { code, output } = await runCadre(['usage', '--tenant', tenant, '--since', '1 hour'], {
      TEMPORAL_ADDRESS: testAddress(),
      TEMPORAL_NAMESPACE: testNamespace(),
    });
    expect(output).toMatch(new RegExp(`Usage of tenant ${tenant} since \\S+ and its runs: 8 model calls`));
    expect(code).toBe(0);
  });

  it('refuses a tenant id or a priority that cannot be used before anything starts', async () => {
    const long = 'x'.repeat(65);
    await expect(client.start('tenant-leaf', { prompt: 'go', tenant: long })).rejects.toThrow(
      new ConfigurationError(
        `A tenant id is a string of 1 to 64 characters (it is Temporal's fairness key); got "${long}". Nothing was started.`,
      ),
    );
    await expect(client.start('tenant-leaf', { prompt: 'go', tenant: { id: 'acme', weight: 0 } })).rejects.toThrow(
      "Tenant 'acme' has weight 0; a weight is a number above 0 (1 is an equal share). Nothing was started.",
    );
    await expect(client.start('tenant-leaf', { prompt: 'go', priority: 9 })).rejects.toThrow(
      "A run's priority is 'high', 'normal', 'low' or a Temporal priority key from 1 (first) to 5; got 9. Nothing was started.",
    );
  });
});
