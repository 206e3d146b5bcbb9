import type { ModelMessage } from 'ai';
import { modelViewPage, type TranscriptView } from '../../client/model-view';
import type { TranscriptPage } from '../../protocol/definitions';
import type { ConversationStore } from '../../store/conversation-store';
import { openStore } from '../../store/open-store';
import { storedMessages } from '../../store/stored-messages';

/**
 * `cadre transcript <workflowId> [--json] [--view full|model]`: prints the conversation of a run,
 * page by page from the conversation store (no Temporal server needed), one message after another
 * (`--json`: one JSON message a line). `full` (default) prints every stored message; `model` what
 * the next step's model sees after context compaction, the summary first.
 */
export async function transcriptCommand(
  workflowId: string,
  json: boolean,
  write: (line: string) => void,
  view: TranscriptView = 'full',
): Promise<number> {
  let index = 0;
  const print = (message: ModelMessage) => {
    write(json ? JSON.stringify(message) : formatMessage(index, message));
    index += 1;
  };
  const store = await openStore();
  try {
    const conversationId = await store.findConversation(workflowId);
    if (conversationId && view === 'model') {
      const header = (page: TranscriptPage) => {
        if (!json) write(viewHeader(page));
      };
      for await (const message of modelViewMessages(store, conversationId, header)) print(message);
    } else if (conversationId) {
      const branches = await forkBranches(store, conversationId, workflowId);
      for await (const message of storedMessages(store, conversationId)) {
        const branch = branches.get(index);
        if (branch && !json) write(branch);
        print(message);
      }
      const atEnd = branches.get(index);
      if (atEnd && !json) write(atEnd);
    }
  } finally {
    await store.close();
  }
  if (index === 0) write(`The conversation of ${workflowId} has no messages yet.`);
  return 0;
}

/**
 * The lines that say where the conversation branched, by the index they go before: a fork (of a
 * fork, ...) reads its first messages from the run it branched off.
 */
async function forkBranches(
  store: ConversationStore,
  conversationId: string,
  workflowId: string,
): Promise<Map<number, string>> {
  const branches = new Map<number, string>();
  let child = { id: conversationId, workflowId };
  for (let origin = await store.forkOrigin(child.id); origin; origin = await store.forkOrigin(child.id)) {
    if (!branches.has(origin.length))
      branches.set(
        origin.length,
        `--- ${child.workflowId} branched off ${origin.parentWorkflowId} here: messages before [${origin.length}] are ${origin.parentWorkflowId}'s ---`,
      );
    child = { id: origin.parentId, workflowId: origin.parentWorkflowId };
  }
  return branches;
}

/** Every message of the model's view, page by page; `onFirstPage` sees the first page (its `compactedBefore`). */
async function* modelViewMessages(
  store: ConversationStore,
  conversationId: string,
  onFirstPage: (page: TranscriptPage) => void,
): AsyncGenerator<ModelMessage> {
  let page = await modelViewPage(store, conversationId, { from: 0 });
  onFirstPage(page);
  for (;;) {
    yield* page.messages;
    const next = page.next ?? page.from + page.messages.length;
    if (page.messages.length === 0 || next >= page.total) return;
    page = await modelViewPage(store, conversationId, { from: next });
  }
}

/** The line above a model view: which stored messages message 0 stands for, or that nothing was compacted. */
function viewHeader(page: TranscriptPage): string {
  const before = page.compactedBefore;
  if (before === undefined) return '(model view: no compaction yet, the model sees every stored message)';
  return (
    `(model view: message [0] stands for stored messages 0 to ${before - 1}; ` +
    `[1] on are the stored messages from ${before} on; compactedBefore ${before})`
  );
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
