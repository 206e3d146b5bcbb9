import { WorkflowFailedError } from '@temporalio/client';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from '../../src/agents/define-agent';
import { CadreError } from '../../src/errors';
import type { AgentStatusReport } from '../../src/protocol/definitions';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { httpError } from '../helpers/provider-errors';
import { callTool, lastToolResult, reactiveModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';

/** What the scripted provider answers: 401 until the key is "fixed". */
const provider = { keyFixed: false, calls: { onUser: 0, afterTools: 0 } };
const lookups: string[] = [];
let hangNextFetch = true;

const lookup = tool({
  description: 'Looks a word up.',
  inputSchema: z.object({ word: z.string() }),
  execute: async ({ word }) => {
    lookups.push(word);
    return `${word}: found`;
  },
});

/** A tool whose first call hangs past its 1 s timeout (one attempt), so its activity fails. */
const fetchPage = tool({
  description: 'Fetches a page.',
  inputSchema: z.object({ url: z.string() }),
  execute: async ({ url }, { abortSignal }) => {
    if (hangNextFetch) {
      hangNextFetch = false;
      await new Promise((resolve) => {
        abortSignal?.addEventListener('abort', resolve);
        setTimeout(resolve, 5000);
      });
    }
    return `page ${url}`;
  },
});

const rejectedUntilFixed = () => {
  provider.calls.afterTools += 1;
  if (!provider.keyFixed) throw httpError(401, 'Incorrect API key provided');
  return 'done';
};

const agents = [
  defineAgent({
    name: 'patient',
    onFailure: 'wait',
    tools: { lookup },
    model: reactiveModel(
      () => {
        provider.calls.onUser += 1;
        return callTool('lookup', { word: 'durable' });
      },
      (options) => (rejectedUntilFixed() ? `answer: ${lastToolResult(options)}` : ''),
    ),
  }),
  defineAgent({
    name: 'fetcher',
    onFailure: 'wait',
    tools: { fetchPage },
    toolOptions: { fetchPage: { timeout: '1 second', retry: { maximumAttempts: 1 } } },
    model: reactiveModel(callTool('fetchPage', { url: 'https://example.com' }), (options) => ({
      text: `model saw: ${lastToolResult(options)}`,
    })),
  }),
  defineAgent({
    name: 'short-wait',
    onFailure: 'wait',
    attentionTimeout: '2 seconds',
    model: reactiveModel(() => {
      throw httpError(403, 'Quota exceeded for this key');
    }),
  }),
  defineAgent({
    name: 'lead',
    model: reactiveModel(
      { toolCalls: [{ toolName: 'research', input: { task: 'look it up' }, toolCallId: 'research-call' }] },
      (options) => `lead got: ${lastToolResult(options)}`,
    ),
    subagents: { research: { agent: 'patient', description: 'Researches.' } },
  }),
];

async function statusOf(env: AgentTestEnv, workflowId: string): Promise<AgentStatusReport> {
  return await env.client.getHandle(workflowId).status();
}

describe("a run whose agent has onFailure: 'wait'", () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents);
  });
  afterAll(async () => {
    await env.stop();
  });
  beforeEach(() => {
    provider.keyFixed = false;
    provider.calls = { onUser: 0, afterTools: 0 };
    lookups.length = 0;
  });

  it('waits in needs-attention when the provider answers 401, and retry() finishes it without running the completed step again', async () => {
    const handle = await env.client.start('patient', { prompt: 'define durable' });
    await waitFor(async () => (await handle.needsAttention()).length === 1, 'the failed step to wait');
    const [waiting] = await handle.needsAttention();
    expect(waiting).toMatchObject({
      attentionId: 'attention-2-1',
      workflowId: handle.workflowId,
      agent: 'patient',
      kind: 'model-step',
      step: 2,
      errorType: 'ProviderRequestRejected',
      status: 'waiting',
    });
    expect(waiting?.message).toContain('(HTTP 401): Incorrect API key provided.');
    const status = await handle.status();
    expect(status).toMatchObject({ status: 'needs-attention', needsAttention: 1, steps: 1 });

    // Someone fixes the key; the retry runs step 2 again, and step 1 and its tool are not run again.
    provider.keyFixed = true;
    const [retried] = await handle.retry({ by: 'ops@example.com' });
    expect(retried).toMatchObject({ status: 'retried', resolution: { action: 'retry', by: 'ops@example.com' } });
    const result = await handle.result();
    expect(result.text).toBe('answer: durable: found');
    expect(result.steps).toBe(2);
    expect(provider.calls).toEqual({ onUser: 1, afterTools: 2 });
    expect(lookups).toEqual(['durable']);
    const events: string[] = [];
    for await (const event of handle.stream({ textDeltas: false })) events.push(event.type);
    expect(events).toEqual(expect.arrayContaining(['attention-needed', 'attention-resolved']));
  });

  it('fails the run with the original error when a person chooses failRun()', async () => {
    const handle = await env.client.start('patient', { prompt: 'define durable' });
    await waitFor(async () => (await handle.needsAttention()).length === 1, 'the failed step to wait');
    await handle.failRun({ by: 'ops' });
    const failure = await handle.result().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause?.message).toContain(
      "Model step 2 of agent 'patient' failed: Model provider rejected the request for 'agent:patient' (HTTP 401)",
    );
  });

  it('refuses a skip of a model step, a decision on an unknown id, and a second decision, each with its reason', async () => {
    const handle = await env.client.start('patient', { prompt: 'define durable' });
    await waitFor(async () => (await handle.needsAttention()).length === 1, 'the failed step to wait');
    const skipped = await handle.skip({ attentionId: 'attention-2-1' }).catch((error: unknown) => error);
    expect(skipped).toBeInstanceOf(CadreError);
    expect((skipped as CadreError).type).toBe('InvalidAttentionDecision');
    expect((skipped as CadreError).message).toBe(
      "Attention request 'attention-2-1' is a failed model step: only a tool call can be skipped. Choose 'retry' or 'fail'.",
    );
    const noTool = await handle.skip().catch((error: unknown) => error);
    expect((noTool as CadreError).type).toBe('NothingNeedsAttention');
    const unknown = await handle.retry({ attentionId: 'attention-9-9' }).catch((error: unknown) => error);
    expect((unknown as CadreError).type).toBe('UnknownAttention');
    expect((unknown as CadreError).message).toBe("Unknown attention id 'attention-9-9'. Waiting: attention-2-1.");
    // The key is still wrong: the retried step fails again and waits as attention-2-2, so the run stays to refuse.
    await handle.retry({ attentionId: 'attention-2-1', by: 'first' });
    const again = await env.client
      .getHandle(handle.workflowId)
      .retry({ attentionId: 'attention-2-1', by: 'second' })
      .catch((error: unknown) => error);
    expect((again as CadreError).type).toBe('AttentionNotWaiting');
    expect((again as CadreError).message).toMatch(
      /^Attention request 'attention-2-1' \(model step 2\) was already decided: retry by first at .+\. Each failure takes one decision\.$/,
    );
    await waitFor(
      async () => (await handle.needsAttention()).some((request) => request.attentionId === 'attention-2-2'),
      'the step to fail again',
    );
    provider.keyFixed = true;
    await handle.retry({ by: 'second' });
    await handle.result();
  });

  it('lets a person skip a tool call that failed through its retries: the model gets an error result naming who skipped it', async () => {
    hangNextFetch = true;
    const handle = await env.client.start('fetcher', { prompt: 'fetch the page' });
    await waitFor(async () => (await handle.needsAttention()).length === 1, 'the failed tool call to wait');
    const [waiting] = await handle.needsAttention();
    expect(waiting).toMatchObject({
      kind: 'tool',
      toolName: 'fetchPage',
      input: { url: 'https://example.com' },
      step: 1,
    });
    expect(waiting?.errorType).toBe('TimeoutFailure');
    await handle.skip({ by: 'ops@example.com', reason: 'the site is down' });
    const result = await handle.result();
    expect(result.text).toMatch(
      /^model saw: Error: tool 'fetchPage' was skipped by ops@example\.com after it failed: .+ \(the site is down\) It did not complete; go on without its result or try another way\.$/,
    );
  });

  it('runs a tool call that failed through its retries again on retry(), and the model gets its real result', async () => {
    hangNextFetch = true;
    const handle = await env.client.start('fetcher', { prompt: 'fetch the page' });
    await waitFor(async () => (await handle.needsAttention()).length === 1, 'the failed tool call to wait');
    await handle.retry({ by: 'ops' });
    expect((await handle.result()).text).toBe('model saw: page https://example.com');
  });

  it('fails the run with the original error when nobody decides within attentionTimeout', async () => {
    const failure = await env.client.run('short-wait', 'hello').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause?.message).toBe(
      "Model step 1 of agent 'short-wait' failed: Model provider rejected the request for 'agent:short-wait' (HTTP 403): " +
        'Quota exceeded for this key. Check the model id, the API key and the model settings; retrying the same request would not help.',
    );
  });

  it("surfaces a subagent's waiting failure at the root, where retry() finishes the whole tree", async () => {
    const handle = await env.client.start('lead', { prompt: 'research durable' });
    await waitFor(async () => (await handle.needsAttention()).length === 1, "the subagent's failed step to wait");
    const [waiting] = await handle.needsAttention();
    expect(waiting?.agent).toBe('patient');
    expect(waiting?.workflowId).not.toBe(handle.workflowId);
    expect((await statusOf(env, waiting!.workflowId)).status).toBe('needs-attention');
    provider.keyFixed = true;
    await handle.retry({ by: 'ops' });
    const result = await handle.result();
    expect(result.text).toBe('lead got: answer: durable: found');
  });
});

describe('a failure that waits on workers that sign', () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(agents, { approvalSecret: 'attention-test-secret-of-at-least-32-bytes' });
  });
  afterAll(async () => {
    await env.stop();
  });

  it('is listed with its signature, refuses a decision with another one, and takes the listed one', async () => {
    provider.keyFixed = false;
    const handle = await env.client.start('patient', { prompt: 'define durable' });
    await waitFor(async () => (await handle.needsAttention()).length === 1, 'the failed step to wait');
    const [waiting] = await handle.needsAttention();
    expect(waiting?.signature).toMatch(/^[\w-]{43}$/);
    const forged = await handle.retry({ signature: 'A'.repeat(43) }).catch((error: unknown) => error);
    expect((forged as CadreError).type).toBe('ApprovalNotVerified');
    expect((forged as CadreError).message).toBe(
      "The decision on attention request 'attention-2-1' was refused: the signature does not match this request " +
        "(tool 'model step', call 'model-step-2', its input and workflow). Present the signature listed by needsAttention().",
    );
    provider.keyFixed = true;
    await handle.retry({ by: 'ops' });
    expect((await handle.result()).text).toBe('answer: durable: found');
  });
});
