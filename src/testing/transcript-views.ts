import type { ModelMessage } from 'ai';
import type { AgentHandle } from '../client/agent-handle';

/** A tool call of a run's transcript with its outcome, for assertions. */
export interface ToolCallRecord {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The result the model saw (`{ type: 'text', value }`, `{ type: 'execution-denied', reason }`, ...); undefined while open. */
  output?: unknown;
}

/** The tool calls of one run (not of its subagents: use their handles) in order, each with its output once it has one. */
export async function toolCalls(handle: AgentHandle): Promise<ToolCallRecord[]> {
  return toolCallsOf(await readAll(handle));
}

/**
 * The run's transcript as plain lines (`user: ...`, `assistant: ...`, `tool-call purge {...}`,
 * `tool-result purge: ...`, `approval ...`), to assert with `toContain` and to read in a failure.
 */
export async function transcriptText(handle: AgentHandle): Promise<string> {
  return (await readAll(handle)).flatMap(linesOf).join('\n');
}

/** Tool calls of a list of messages. */
export function toolCallsOf(messages: readonly ModelMessage[]): ToolCallRecord[] {
  const calls = new Map<string, ToolCallRecord>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') {
        calls.set(part.toolCallId, { toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
      } else if (part.type === 'tool-result') {
        const call = calls.get(part.toolCallId);
        if (call) call.output = part.output;
        else calls.set(part.toolCallId, { ...part, input: undefined });
      }
    }
  }
  return [...calls.values()].map(({ toolCallId, toolName, input, output }) => ({
    toolCallId,
    toolName,
    input,
    ...(output === undefined ? {} : { output }),
  }));
}

async function readAll(handle: AgentHandle): Promise<ModelMessage[]> {
  const messages: ModelMessage[] = [];
  for await (const message of handle.messages()) messages.push(message);
  return messages;
}

function linesOf(message: ModelMessage): string[] {
  if (typeof message.content === 'string') return [`${message.role}: ${message.content}`];
  return message.content.map((part) => {
    switch (part.type) {
      case 'text':
        return `${message.role}: ${part.text}`;
      case 'tool-call':
        return `tool-call ${part.toolName} ${JSON.stringify(part.input)}`;
      case 'tool-result':
        return `tool-result ${part.toolName}: ${outputText(part.output)}`;
      case 'tool-approval-request':
        return `approval requested ${part.approvalId} for ${part.toolCallId}`;
      case 'tool-approval-response':
        return `approval ${part.approved ? 'granted' : 'denied'} ${part.approvalId}${part.reason ? `: ${part.reason}` : ''}`;
      default:
        return `${message.role}: [${part.type}]`;
    }
  });
}

function outputText(output: unknown): string {
  const { type, value, reason } = (output ?? {}) as { type?: string; value?: unknown; reason?: string };
  if (type === 'execution-denied') return `denied: ${reason ?? 'no reason given'}`;
  if (typeof value === 'string') return type === 'error-text' ? `error: ${value}` : value;
  return JSON.stringify(value ?? output);
}
