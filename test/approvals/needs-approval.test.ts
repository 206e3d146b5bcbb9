import { type ModelMessage, tool, ToolLoopAgent, type ToolApprovalConfiguration, type ToolSet } from 'ai';
import { z } from 'zod';
import type { RuntimeContext } from '../../src/agents/agent-definition';
import { defineAgent } from '../../src/agents/define-agent';
import { judgeToolCalls } from '../../src/activities/approval-requests';
import { ApprovalSigner } from '../../src/activities/approval-signer';
import { type AgentTestEnv, startAgentTestEnv } from '../helpers/agent-test-env';
import { type ScriptedStep, scriptedModel } from '../helpers/scripted-model';
import { waitFor } from '../helpers/wait';
import { partsOf } from './fixtures';

/** Payments made, by tool call id: a call that waits for a human must not be here before the decision. */
const paid: string[] = [];
/** What each `needsApproval` function received: the input and the names of its options. */
const asked: Array<{ input: unknown; toolCallId: string; optionNames: string[]; messages: ModelMessage[] }> = [];

function paymentTool(needsApproval: boolean | 'over-100') {
  return tool({
    description: 'Pays an amount.',
    inputSchema: z.object({ amount: z.number() }),
    needsApproval:
      needsApproval === 'over-100'
        ? async ({ amount }, options) => {
            asked.push({
              input: { amount },
              toolCallId: options.toolCallId,
              optionNames: Object.keys(options).sort(),
              messages: options.messages,
            });
            return amount > 100;
          }
        : needsApproval,
    execute: async ({ amount }, { toolCallId }) => {
      paid.push(toolCallId);
      return `paid ${amount}`;
    },
  });
}

/** The step every scenario's model takes first; then it answers 'done'. */
const payments: ScriptedStep = {
  toolCalls: [
    { toolName: 'pay', input: { amount: 50 }, toolCallId: 'small' },
    { toolName: 'pay', input: { amount: 500 }, toolCallId: 'large' },
  ],
};
const script = () => scriptedModel([payments, { text: 'done' }]);

interface Scenario {
  name: string;
  needsApproval: boolean | 'over-100';
  toolApproval?: ToolApprovalConfiguration<ToolSet, RuntimeContext>;
}
const scenarios: Record<string, Scenario> = {
  always: { name: 'always', needsApproval: true },
  function: { name: 'function', needsApproval: 'over-100' },
  overridden: { name: 'overridden', needsApproval: true, toolApproval: { pay: 'approved' } },
};

/** Runs the AI SDK's own ToolLoopAgent on the same script: which calls ask a human, and which ran. */
async function underTheAiSdk(scenario: Scenario) {
  paid.length = 0;
  asked.length = 0;
  const agent = new ToolLoopAgent({
    model: script(),
    tools: { pay: paymentTool(scenario.needsApproval) },
    // The scenario's policy is typed for any tool set; this agent's is typed for its own.
    ...(scenario.toolApproval ? { toolApproval: scenario.toolApproval as never } : {}),
  });
  const result = await agent.generate({ prompt: 'pay the invoices' });
  const requests = result.steps
    .flatMap((step) => step.content)
    .filter((part) => part.type === 'tool-approval-request')
    .map((part) => ({ toolCallId: part.toolCall.toolCallId, automatic: part.isAutomatic === true }));
  return {
    requests,
    ran: [...paid].sort(),
    asked: asked.map(({ input, toolCallId, optionNames }) => ({ input, toolCallId, optionNames })),
    messages: asked[0]?.messages,
  };
}

describe("a tool's own needsApproval, as under the AI SDK's ToolLoopAgent", () => {
  let env: AgentTestEnv;
  beforeAll(async () => {
    env = await startAgentTestEnv(
      Object.values(scenarios).map((scenario) =>
        defineAgent({
          name: `needs-${scenario.name}`,
          model: script(),
          tools: { pay: paymentTool(scenario.needsApproval) },
          ...(scenario.toolApproval ? { toolApproval: scenario.toolApproval } : {}),
        }),
      ),
    );
  });
  afterAll(async () => {
    await env.stop();
  });
  beforeEach(() => {
    paid.length = 0;
    asked.length = 0;
  });

  /** Runs the scenario on Cadre with `humanRequests` waiting, approving them once the other calls have run. */
  async function underCadre(scenario: Scenario, humanRequests: number) {
    paid.length = 0;
    asked.length = 0;
    const handle = await env.client.start(`needs-${scenario.name}`, { prompt: 'pay the invoices' });
    let waiting: string[] = [];
    if (humanRequests > 0) {
      await waitFor(async () => (await handle.pendingApprovals()).length === humanRequests, 'the requests');
      waiting = (await handle.pendingApprovals()).map((request) => request.toolCallId).sort();
      // The step's other calls run; the waiting ones have not, and will not before the decision.
      await waitFor(() => paid.length === 2 - waiting.length, 'the calls that need no human');
      for (const toolCallId of waiting) expect(paid).not.toContain(toolCallId);
      for (const request of await handle.pendingApprovals()) await handle.approve(request.approvalId, { by: 'alice' });
    }
    expect((await handle.result()).text).toBe('done');
    const [, assistant] = (await handle.transcript()).messages;
    const requestParts = partsOf(assistant).filter((part) => part.type === 'tool-approval-request');
    return { handle, waiting, requestParts };
  }

  it('waits for a human on a tool with needsApproval: true, as the AI SDK does, and never runs it before the decision', async () => {
    const aiSdk = await underTheAiSdk(scenarios.always as Scenario);
    expect(aiSdk).toMatchObject({
      requests: [
        { toolCallId: 'small', automatic: false },
        { toolCallId: 'large', automatic: false },
      ],
      ran: [],
    });
    const cadre = await underCadre(scenarios.always as Scenario, 2);
    expect(cadre.waiting).toEqual(['large', 'small']);
    expect(paid.sort()).toEqual(['large', 'small']);
    // Only the requests Cadre tracks reach the transcript: no AI SDK request ids (`aitxt-…`).
    expect(cadre.requestParts).toEqual([
      { type: 'tool-approval-request', approvalId: 'approval-1-1', toolCallId: 'small' },
      { type: 'tool-approval-request', approvalId: 'approval-1-2', toolCallId: 'large' },
    ]);
  });

  it('asks a needsApproval function with the AI SDK’s arguments and waits only for the calls it flags', async () => {
    const aiSdk = await underTheAiSdk(scenarios.function as Scenario);
    expect(aiSdk.requests).toEqual([{ toolCallId: 'large', automatic: false }]);
    expect(aiSdk.ran).toEqual(['small']);
    const cadre = await underCadre(scenarios.function as Scenario, 1);
    expect(cadre.waiting).toEqual(['large']);
    // The function ran in the model-step activity, with the same arguments the AI SDK gives it.
    expect(asked.map(({ input, toolCallId, optionNames }) => ({ input, toolCallId, optionNames }))).toEqual(
      expect.arrayContaining(aiSdk.asked),
    );
    expect(asked[0]?.messages).toEqual(aiSdk.messages);
    expect(cadre.requestParts).toEqual([
      { type: 'tool-approval-request', approvalId: 'approval-1-2', toolCallId: 'large' },
    ]);
    expect(paid.sort()).toEqual(['large', 'small']);
  });

  it('lets a toolApproval entry override needsApproval, as the AI SDK does, with one automatic request per call', async () => {
    const aiSdk = await underTheAiSdk(scenarios.overridden as Scenario);
    expect(aiSdk.requests).toEqual([
      { toolCallId: 'small', automatic: true },
      { toolCallId: 'large', automatic: true },
    ]);
    expect(aiSdk.ran).toEqual(['large', 'small']);
    const cadre = await underCadre(scenarios.overridden as Scenario, 0);
    expect(cadre.waiting).toEqual([]);
    expect(paid.sort()).toEqual(['large', 'small']);
    expect(cadre.requestParts).toEqual([
      { type: 'tool-approval-request', approvalId: 'approval-1-1', toolCallId: 'small', isAutomatic: true },
      { type: 'tool-approval-request', approvalId: 'approval-1-2', toolCallId: 'large', isAutomatic: true },
    ]);
    expect((await cadre.handle.approvals()).requests).toEqual([]);
  });
});

describe('where Cadre and the AI SDK judge differently, on purpose', () => {
  const call = { toolCallId: 'c1', toolName: 'pay', input: { amount: 5 } };
  const context = (policy: unknown, signer?: ApprovalSigner) => ({
    policy: policy as ToolApprovalConfiguration<ToolSet, RuntimeContext>,
    tools: { pay: paymentTool(false) },
    messages: [],
    runtimeContext: {},
    workflowId: 'w',
    idPrefix: '',
    step: 1,
    ...(signer ? { signer } : {}),
  });

  it('denies a call whose policy returns a status outside the four typed values (the AI SDK would run it)', async () => {
    expect(await judgeToolCalls([call], context({ pay: 'aproved' }))).toEqual([
      {
        ...call,
        approval: {
          type: 'denied',
          approvalId: 'approval-1-1',
          reason:
            'The approval policy returned the unknown status "aproved", so the call was denied. ' +
            "Return 'not-applicable', 'approved', 'denied' or 'user-approval' (or { type, reason }).",
        },
      },
    ]);
  });

  it('signs automatic requests too when a secret is set, as the AI SDK does', async () => {
    const signer = new ApprovalSigner('s'.repeat(32));
    const [approved] = await judgeToolCalls([call], context({ pay: 'approved' }, signer));
    expect(approved?.approval?.signature).toBe(signer.sign({ ...call, approvalId: 'approval-1-1', workflowId: 'w' }));
  });
});
