import type { ModelMessage } from 'ai';
import { AgentClient } from '../../client/agent-client';
import { openStore } from '../../store/open-store';
import { storedMessages } from '../../store/stored-messages';

/**
 * `cadre transcript <workflowId> [--json]`: prints the whole conversation of a run, page by page
 * from the conversation store (no Temporal server needed), one message after another (`--json`:
 * one JSON message a line). Runs from before the store are asked through Temporal.
 */
export async function transcriptCommand(
  workflowId: string,
  json: boolean,
  write: (line: string) => void,
): Promise<number> {
  let index = 0;
  const print = (message: ModelMessage) => {
    write(json ? JSON.stringify(message) : formatMessage(index, message));
    index += 1;
  };
  const store = await openStore();
  try {
    const conversationId = await store.findConversation(workflowId);
    if (conversationId) {
      for await (const message of storedMessages(store, conversationId)) print(message);
    } else {
      const client = await AgentClient.connect({ store });
      try {
        for await (const message of client.getHandle(workflowId).messages()) print(message);
      } finally {
        await client.close();
      }
    }
  } finally {
    await store.close();
  }
  if (index === 0) write(`The conversation of ${workflowId} has no messages yet.`);
  return 0;
}

/** One message as text: its index and role, then each part on its own lines. */
export function formatMessage(index: number, message: ModelMessage): string {
  const head = `[${index}] ${message.role}`;
  if (typeof message.content === 'string') return `${head}: ${message.content}`;
  const parts = (message.content as Array<Record<string, unknown> & { type: string }>).map((part) => {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        return `${part.type === 'reasoning' ? '(reasoning) ' : ''}${String(part.text)}`;
      case 'tool-call':
        return `-> ${String(part.toolName)}(${JSON.stringify(part.input)}) [${String(part.toolCallId)}]`;
      case 'tool-result': {
        const output = part.output as { type: string; value?: unknown; reason?: string };
        const value = output.type === 'execution-denied' ? `denied: ${output.reason ?? ''}` : output.value;
        return `<- ${String(part.toolName)} [${String(part.toolCallId)}] (${output.type}): ${typeof value === 'string' ? value : JSON.stringify(value)}`;
      }
      case 'tool-approval-request':
        return `?? approval ${String(part.approvalId)} for [${String(part.toolCallId)}]${part.isAutomatic ? ' (automatic)' : ''}`;
      case 'tool-approval-response':
        return `!! approval ${String(part.approvalId)}: ${part.approved ? 'approved' : 'denied'}${part.reason ? ` (${String(part.reason)})` : ''}`;
      default:
        return `(${part.type})`;
    }
  });
  return [head, ...parts.map((part) => `  ${part.replace(/\n/g, '\n  ')}`)].join('\n');
}
