import { getToolName, isToolUIPart, type UIMessage } from 'ai';

type Part = UIMessage['parts'][number];

interface SubagentToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  state: string;
  output?: string;
}

interface SubagentProgress {
  type: 'cadre-subagent';
  agent: string;
  task: string;
  status: string;
  text: string;
  toolCalls: SubagentToolCall[];
  subagents: SubagentProgress[];
  modelOutput?: string;
}

function isProgress(value: unknown): value is SubagentProgress {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'cadre-subagent';
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1);
}

/** One part of a message: text, or a tool call in whatever state it is. */
export function MessagePart({
  part,
  onDecide,
}: {
  part: Part;
  onDecide: (approvalId: string, approved: boolean) => void;
}) {
  if (part.type === 'text') return <p>{part.text}</p>;
  if (part.type === 'data-agent-changed') {
    const change = part.data as { step?: number; from?: string; to?: string };
    return (
      <p className="notice">
        The agent&apos;s definition changed at step {change.step} ({change.from} → {change.to}): a worker of another
        build ran it.
      </p>
    );
  }
  if (part.type === 'data-attention') {
    const attention = part.data as {
      workflowId: string;
      kind: string;
      step: number;
      toolName?: string;
      message: string;
      status: string;
      by?: string;
    };
    const what = attention.kind === 'tool' ? `Tool ${attention.toolName}` : `Model step ${attention.step}`;
    if (attention.status !== 'waiting') {
      const decided = { retry: 'retried', skip: 'skipped', fail: 'failed' }[attention.status] ?? attention.status;
      return (
        <p className="notice" data-testid="attention" data-state={attention.status}>
          {what} {decided} by {attention.by}.
        </p>
      );
    }
    return (
      <p className="notice error" data-testid="attention" data-state="waiting">
        Needs attention: {what.toLowerCase()} failed: {attention.message} The run waits until an operator retries it (
        <code>cadre retry {attention.workflowId}</code>){attention.kind === 'tool' ? ', skips it' : ''} or fails it.
      </p>
    );
  }
  if (!isToolUIPart(part)) return null;
  const name = getToolName(part);
  const title = 'title' in part && typeof part.title === 'string' ? part.title : name;
  const head = (
    <div>
      <span className="name">{title}</span> <code>{show(part.input)}</code>
    </div>
  );
  switch (part.state) {
    case 'input-streaming':
    case 'input-available':
      return (
        <div className="tool" data-testid={`tool-${name}`} data-state={part.state}>
          {head}
          <span className="muted">running…</span>
        </div>
      );
    case 'approval-requested':
      return (
        <div className="tool approval" data-testid={`tool-${name}`} data-state={part.state}>
          {head}
          <p>Needs your approval{part.approval.requestReason ? `: ${part.approval.requestReason}` : ''}</p>
          <button className="approve" data-testid="approve" onClick={() => onDecide(part.approval.id, true)}>
            Approve
          </button>
          <button className="deny" data-testid="deny" onClick={() => onDecide(part.approval.id, false)}>
            Deny
          </button>
        </div>
      );
    case 'approval-responded':
      return (
        <div className="tool approval" data-testid={`tool-${name}`} data-state={part.state}>
          {head}
          <span className="muted">{part.approval.approved ? 'approved, running…' : 'denied'}</span>
        </div>
      );
    case 'output-denied':
      return (
        <div className="tool denied" data-testid={`tool-${name}`} data-state={part.state}>
          {head}
          <p data-testid="denial">
            {part.approval.isAutomatic ? 'Denied automatically' : 'Denied'}
            {part.approval.reason ? `: ${part.approval.reason}` : ''}
          </p>
        </div>
      );
    case 'output-error':
      return (
        <div className="tool failed" data-testid={`tool-${name}`} data-state={part.state}>
          {head}
          <pre>{part.errorText}</pre>
        </div>
      );
    case 'output-available':
      if (isProgress(part.output))
        return <Subagent name={name} progress={part.output} live={part.preliminary === true} />;
      return (
        <div className="tool" data-testid={`tool-${name}`} data-state={part.state}>
          {head}
          <pre data-testid="tool-output">{show(part.output)}</pre>
        </div>
      );
    default:
      return null;
  }
}

/** A subagent at work: a "Researching…" placeholder with its progress, then its summary. */
function Subagent({ name, progress, live }: { name: string; progress: SubagentProgress; live: boolean }) {
  return (
    <div className="tool subagent" data-testid={`subagent-${name}`} data-live={live ? 'true' : 'false'}>
      <div>
        <span className="name">{name}</span> ({progress.agent}): {progress.task}
      </div>
      {live ? (
        <p className="placeholder" data-testid="researching">
          Researching… <span className="muted">{progress.status}</span>
        </p>
      ) : (
        <p className="muted">{progress.status}</p>
      )}
      {progress.toolCalls.map((call) => (
        <div key={call.toolCallId} className="muted" data-testid="subagent-tool">
          {call.toolName}({show(call.input)}) — {call.state}
          {call.output ? `: ${call.output}` : ''}
        </div>
      ))}
      {progress.text && <p data-testid="subagent-text">{progress.text}</p>}
      {progress.modelOutput !== undefined && (
        <>
          <div className="muted">what the parent's model read:</div>
          <pre data-testid="subagent-summary">{progress.modelOutput}</pre>
        </>
      )}
    </div>
  );
}
