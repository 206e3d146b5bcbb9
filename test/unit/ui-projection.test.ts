import { type UIMessage, type UIMessageChunk, validateUIMessages } from 'ai';
import { readUIMessages } from '../helpers/ui-messages';
import type { StreamedEvent } from '../../src/client/tree-stream';
import { chatMessages } from '../../src/chat/chat-turns';
import { type ProjectorLookups, UIProjector } from '../../src/chat/ui-projector';
import type { AgentEventBody } from '../../src/protocol/agent-events';
import type { ApprovalRequest } from '../../src/protocol/approval-types';

const root = 'files-1';
const child = `${root}/research-0`;

/** Approval requests as the runs would report them, by approval id. */
const requests: Record<string, ApprovalRequest> = {
  'approval-delete': request(root, 'approval-delete', 'call-delete', 'delete_file', { path: 'notes/old.txt' }),
  'approval-pay': request(root, 'approval-pay', 'call-pay', 'pay_invoice', { amount: 40, recipient: 'ACME' }),
  'approval-wipe': request(root, 'approval-wipe', 'call-wipe', 'wipe_disk', {}),
  'approval-child': request(child, 'approval-child', 'call-9', 'archive', { id: 7 }),
};

const lookups: ProjectorLookups = {
  approval: async (_workflowId, approvalId) => requests[approvalId],
  childCall: async (parent, childId) => (parent === root && childId === child ? 'call-research' : undefined),
};

function request(
  workflowId: string,
  approvalId: string,
  toolCallId: string,
  toolName: string,
  input: unknown,
): ApprovalRequest {
  return {
    approvalId,
    workflowId,
    toolCallId,
    toolName,
    input,
    requestedAt: '2026-12-01T00:00:00Z',
    status: 'pending',
  };
}

/** A turn that reaches every state a tool part can: each settles while the others still wait. */
function turnEvents(): StreamedEvent[] {
  const bodies: Array<[string, AgentEventBody]> = [
    [root, { type: 'user-message', text: 'Please delete the file notes/old.txt' }],
    [root, { type: 'text', step: 1, text: 'Looking.' }],
    [root, { type: 'tool-call', toolCallId: 'call-list', toolName: 'list_files', input: {} }],
    [root, { type: 'tool-call', toolCallId: 'call-read', toolName: 'read_file', input: { path: 'notes/old.txt' } }],
    [root, { type: 'tool-call', toolCallId: 'call-delete', toolName: 'delete_file', input: { path: 'notes/old.txt' } }],
    [root, { type: 'tool-call', toolCallId: 'call-pay', toolName: 'pay_invoice', input: { amount: 40 } }],
    [root, { type: 'tool-call', toolCallId: 'call-wipe', toolName: 'wipe_disk', input: {} }],
    [root, { type: 'tool-call', toolCallId: 'call-auto', toolName: 'format_disk', input: {} }],
    [root, { type: 'tool-call', toolCallId: 'call-research', toolName: 'research', input: { task: 'dig' } }],
    [root, { type: 'tool-call', toolCallId: 'call-broken', toolName: 'broken', input: {} }],
    // A denial by policy: no request, no human.
    [root, toolResult('call-auto', 'format_disk', 'execution-denied', 'Formatting is never allowed.')],
    [root, { type: 'approval-requested', approvalId: 'approval-delete', toolName: 'delete_file', input: {} }],
    [root, { type: 'approval-requested', approvalId: 'approval-pay', toolName: 'pay_invoice', input: {} }],
    [root, { type: 'approval-requested', approvalId: 'approval-wipe', toolName: 'wipe_disk', input: {} }],
    [root, toolResult('call-list', 'list_files', 'json', '["notes/old.txt"]')],
    [root, toolResult('call-read', 'read_file', 'text', 'old notes')],
    [root, toolResult('call-broken', 'broken', 'error-text', 'Error: broken failed')],
    [
      root,
      {
        type: 'subagent-started',
        childWorkflowId: child,
        toolName: 'research',
        agent: 'researcher',
        childDepth: 1,
        task: 'dig',
      },
    ],
    [child, { type: 'tool-call', toolCallId: 'call-9', toolName: 'archive', input: { id: 7 } }],
    [child, { type: 'approval-requested', approvalId: 'approval-child', toolName: 'archive', input: {} }],
    [child, { type: 'approval-decided', approvalId: 'approval-child', approved: false, by: 'ann', reason: 'No.' }],
    [child, toolResult('call-9', 'archive', 'execution-denied', 'No.')],
    [child, { type: 'text', step: 1, text: 'Could not archive.' }],
    [child, { type: 'run-finished', status: 'completed', text: 'Could not archive.' }],
    [root, { type: 'subagent-finished', childWorkflowId: child, toolName: 'research', stopReason: 'completed' }],
    [root, toolResult('call-research', 'research', 'text', 'Could not archive.')],
    // A human's approval, a human's denial, and a denial by timeout.
    [root, { type: 'approval-decided', approvalId: 'approval-delete', approved: true, by: 'ann' }],
    [root, toolResult('call-delete', 'delete_file', 'text', 'deleted notes/old.txt')],
    [root, { type: 'approval-decided', approvalId: 'approval-pay', approved: false, by: 'ann', reason: 'Too much.' }],
    [root, toolResult('call-pay', 'pay_invoice', 'execution-denied', 'Too much.')],
    [
      root,
      {
        type: 'approval-decided',
        approvalId: 'approval-wipe',
        approved: false,
        by: 'timeout',
        reason: 'No decision within 1 hour.',
      },
    ],
    [root, toolResult('call-wipe', 'wipe_disk', 'execution-denied', 'No decision within 1 hour.')],
    [root, { type: 'text', step: 2, text: 'Deleted notes/old.txt.' }],
  ];
  const seqs = new Map<string, number>();
  return bodies.map(([workflowId, body]) => {
    const seq = seqs.get(workflowId) ?? 0;
    seqs.set(workflowId, seq + 1);
    return { ...body, seq, at: '2026-12-01T00:00:00Z', workflowId, depth: workflowId === root ? 0 : 1, cursor: {} };
  });
}

function toolResult(toolCallId: string, toolName: string, outputType: string, preview: string): AgentEventBody {
  return { type: 'tool-result', toolCallId, toolName, outputType, preview };
}

type ToolPart = Extract<UIMessage['parts'][number], { toolCallId: string }>;

function toolParts(message: UIMessage): Map<string, ToolPart> {
  const parts = message.parts.filter((part): part is ToolPart => 'toolCallId' in part);
  return new Map(parts.map((part) => [part.toolCallId, part]));
}

describe('the chat projection of a run', () => {
  it('streams chunks that the AI SDK reads into valid UI messages at every point of the turn', async () => {
    const projector = new UIProjector(root, lookups);
    const chunks: UIMessageChunk[] = [];
    for (const event of turnEvents()) chunks.push(...(await projector.project(event)));
    chunks.push(...projector.close());
    const seen = await readUIMessages(chunks);
    expect(seen.length).toBeGreaterThan(20);
    for (const message of seen) await expect(validateUIMessages({ messages: [message] })).resolves.toBeDefined();
  });

  it('gives every denied part its approval: a human denial, a timeout, a policy denial and a subagent call', async () => {
    const [user, assistant] = await chatMessages(root, turnEvents(), lookups, { cadre: { workflowId: root } });
    expect(user?.role).toBe('user');
    await expect(validateUIMessages({ messages: [user!, assistant!] })).resolves.toHaveLength(2);
    const parts = toolParts(assistant!);
    const states = Object.fromEntries([...parts].map(([id, part]) => [id, part.state]));
    expect(states).toEqual({
      'call-list': 'output-available',
      'call-read': 'output-available',
      'call-delete': 'output-available',
      'call-pay': 'output-denied',
      'call-wipe': 'output-denied',
      'call-auto': 'output-denied',
      'call-research': 'output-available',
      'call-broken': 'output-error',
      'research-0:call-9': 'output-denied',
    });
    expect(parts.get('call-pay')?.approval).toEqual({ id: 'approval-pay', approved: false, reason: 'Too much.' });
    expect(parts.get('call-wipe')?.approval).toMatchObject({ approved: false, reason: 'No decision within 1 hour.' });
    expect(parts.get('call-auto')?.approval).toEqual({
      id: 'automatic:call-auto',
      approved: false,
      isAutomatic: true,
      reason: 'Formatting is never allowed.',
    });
    expect(parts.get('research-0:call-9')?.approval).toMatchObject({ id: 'approval-child', approved: false });
    expect(parts.get('call-delete')?.approval).toMatchObject({ id: 'approval-delete', approved: true });
  });

  it('reports calls still running beside an approval wait, and none once each has its result', async () => {
    const projector = new UIProjector(root, lookups);
    const events = turnEvents();
    const upTo = (index: number) => events.slice(0, index);
    for (const event of upTo(14)) await projector.project(event);
    // The three approvals wait; list_files, read_file, research and broken still run.
    expect(projector.hasRunningCalls()).toBe(true);
    for (const event of events.slice(14, 18)) await projector.project(event);
    // Only the subagent call is left (it has started), and its progress streams on its own.
    expect(projector.hasRunningCalls()).toBe(false);
  });

  it('shows approval requests as awaiting a decision while they wait', async () => {
    const events = turnEvents();
    const waiting = events.slice(0, 17);
    const [, assistant] = await chatMessages(root, waiting, lookups, { cadre: { workflowId: root } });
    await expect(validateUIMessages({ messages: [assistant!] })).resolves.toHaveLength(1);
    const parts = toolParts(assistant!);
    expect(parts.get('call-delete')?.state).toBe('approval-requested');
    expect(parts.get('call-list')?.state).toBe('output-available');
    expect(parts.get('call-auto')?.state).toBe('output-denied');
  });
});
