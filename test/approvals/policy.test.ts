import { tool, type ToolApprovalConfiguration, type ToolSet } from 'ai';
import { z } from 'zod';
import type { RuntimeContext } from '../../src/agents/agent-definition';
import { defineAgent } from '../../src/agents/define-agent';
import { evaluateToolApproval, type PolicyCall } from '../../src/activities/approval-policy';
import { ApprovalSigner, canonicalJson } from '../../src/activities/approval-signer';
import { resolveCallSettings, validateCallOptions } from '../../src/activities/call-settings';

const tools = {
  pay: tool({ inputSchema: z.object({ amount: z.number() }), execute: async () => 'paid' }),
  read: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'text' }),
};
const call = (toolName: string, input: unknown, runtimeContext: RuntimeContext = {}): PolicyCall => ({
  toolCallId: 'call-1',
  toolName,
  input,
  tools,
  messages: [{ role: 'user', content: 'pay 5' }],
  runtimeContext,
});
type Policy = ToolApprovalConfiguration<ToolSet, RuntimeContext>;

describe('approval policies', () => {
  it.each([
    ['not-applicable', { type: 'not-applicable' }],
    ['approved', { type: 'approved' }],
    ['denied', { type: 'denied' }],
    ['user-approval', { type: 'user-approval' }],
  ] as const)('maps the per-tool status %s', async (status, verdict) => {
    expect(await evaluateToolApproval({ pay: status }, call('pay', { amount: 1 }))).toEqual(verdict);
  });

  it('keeps the reason of an object status', async () => {
    const policy: Policy = { pay: { type: 'denied', reason: 'Payments are off' } };
    expect(await evaluateToolApproval(policy, call('pay', { amount: 1 }))).toEqual({
      type: 'denied',
      reason: 'Payments are off',
    });
  });

  it('treats no policy, no entry and undefined as not-applicable', async () => {
    expect(await evaluateToolApproval(undefined, call('pay', {}))).toEqual({ type: 'not-applicable' });
    expect(await evaluateToolApproval({ read: 'denied' }, call('pay', {}))).toEqual({ type: 'not-applicable' });
    expect(await evaluateToolApproval({ pay: () => undefined }, call('pay', {}))).toEqual({ type: 'not-applicable' });
  });

  it('gives a per-tool function the parsed input, the call id, the messages and the runtime context', async () => {
    const seen: unknown[] = [];
    const policy: Policy = {
      pay: (input, options) => {
        seen.push(input, options.toolCallId, options.messages, options.runtimeContext);
        return (input as { amount: number }).amount > 1000 ? 'user-approval' : undefined;
      },
    };
    expect(await evaluateToolApproval(policy, call('pay', { amount: 5000 }, { role: 'admin' }))).toEqual({
      type: 'user-approval',
    });
    expect(seen).toEqual([{ amount: 5000 }, 'call-1', [{ role: 'user', content: 'pay 5' }], { role: 'admin' }]);
  });

  it('gives a global function the whole call, the tool set, the messages and the runtime context', async () => {
    const policy: Policy = ({ toolCall, tools: toolSet, messages, runtimeContext }) =>
      toolCall.toolName === 'pay' &&
      toolSet &&
      'read' in toolSet &&
      messages.length === 1 &&
      runtimeContext.role === 'guest'
        ? { type: 'denied', reason: `guests cannot ${toolCall.toolName}` }
        : 'approved';
    expect(await evaluateToolApproval(policy, call('pay', {}, { role: 'guest' }))).toEqual({
      type: 'denied',
      reason: 'guests cannot pay',
    });
    expect(await evaluateToolApproval(policy, call('read', {}, { role: 'guest' }))).toEqual({ type: 'approved' });
  });
});

describe('per-request settings', () => {
  const agent = defineAgent({
    name: 'files',
    tools,
    toolApproval: { pay: 'user-approval' },
    callOptionsSchema: z.object({ canPay: z.boolean() }),
    prepareCall: ({ options, ...settings }) => ({
      ...settings,
      toolApproval: {
        pay: options.canPay ? 'user-approval' : { type: 'denied', reason: 'Payments are disabled for this request' },
      },
    }),
  });

  it('takes the approval policy from prepareCall and the call options', async () => {
    const denied = await resolveCallSettings(agent, { callOptions: { canPay: false } });
    expect(await evaluateToolApproval(denied.toolApproval, call('pay', {}))).toEqual({
      type: 'denied',
      reason: 'Payments are disabled for this request',
    });
    const allowed = await resolveCallSettings(agent, { callOptions: { canPay: true } });
    expect(await evaluateToolApproval(allowed.toolApproval, call('pay', {}))).toEqual({ type: 'user-approval' });
  });

  it('rejects call options that do not match the schema, naming the agent', async () => {
    await expect(validateCallOptions(agent, { canPay: 'yes' })).rejects.toThrow(
      "Call options for agent 'files' do not match its callOptionsSchema",
    );
  });
});

describe('approval signatures', () => {
  const signer = new ApprovalSigner('s'.repeat(32));
  const fields = {
    approvalId: 'approval-1-1',
    toolCallId: 'c1',
    toolName: 'pay',
    input: { amount: 5, to: 'bob' },
    workflowId: 'w',
  };

  it('verifies a signature over the same fields, whatever the key order of the input', () => {
    const signature = signer.sign(fields);
    expect(signer.verify({ ...fields, input: { to: 'bob', amount: 5 } }, signature)).toBe(true);
  });

  it.each([
    ['approval id', { approvalId: 'approval-1-2' }],
    ['tool call id', { toolCallId: 'c2' }],
    ['tool name', { toolName: 'read' }],
    ['input', { input: { amount: 5000, to: 'bob' } }],
    ['workflow id', { workflowId: 'other' }],
  ])('rejects the signature when the %s changes', (_field, change) => {
    expect(signer.verify({ ...fields, ...change }, signer.sign(fields))).toBe(false);
  });

  it('rejects a forged signature and one made with another secret', () => {
    expect(signer.verify(fields, 'forged')).toBe(false);
    expect(signer.verify(fields, new ApprovalSigner('t'.repeat(32)).sign(fields))).toBe(false);
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => new ApprovalSigner('short')).toThrow('CADRE_APPROVAL_SECRET is 5 bytes; use at least 32');
  });

  it('writes canonical JSON with sorted keys at every level', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});
