import type { Payload } from '@temporalio/common';
import type { ConversationStore } from '../store/conversation-store';

/** Most store reads one decode request makes: a page of history, not a scan of the store. */
const maxLookupsPerRequest = 200;

const textDecoder = new TextDecoder();
const textEncoder = new TextEncoder();

interface Lookups {
  store: ConversationStore;
  left: number;
  cache: Map<string, Promise<unknown>>;
}

/**
 * Adds the stored content that decoded payloads only refer to, for Temporal UI and the CLI: a
 * model step's result (`assistantKey` with `conversationId`) gets its `assistant` message, a stored
 * tool output (`key` with `conversationId`) its `output`, and an activity input's references (`role:
 * 'stored'`, `stored-tool-result`) their message and output, read from the input's `conversation`.
 * Payloads that are not JSON, or whose records are gone, are returned as they are.
 */
export async function withStoredContent(payloads: Payload[], store: ConversationStore): Promise<Payload[]> {
  const lookups: Lookups = { store, left: maxLookupsPerRequest, cache: new Map() };
  return await Promise.all(payloads.map((payload) => resolvePayload(payload, lookups)));
}

async function resolvePayload(payload: Payload, lookups: Lookups): Promise<Payload> {
  const encoding = payload.metadata?.encoding ? textDecoder.decode(payload.metadata.encoding) : '';
  if (encoding !== 'json/plain' || !payload.data) return payload;
  let value: unknown;
  try {
    value = JSON.parse(textDecoder.decode(payload.data));
  } catch {
    return payload;
  }
  const changed = await resolveValue(value, undefined, lookups);
  return changed ? { ...payload, data: textEncoder.encode(JSON.stringify(value)) } : payload;
}

/** Fills in references inside `value` in place; true when it added anything. */
async function resolveValue(value: unknown, conversationId: string | undefined, lookups: Lookups): Promise<boolean> {
  if (!value || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    const changed = await Promise.all(value.map((each) => resolveValue(each, conversationId, lookups)));
    return changed.some(Boolean);
  }
  const node = value as Record<string, unknown>;
  const conversation = node.conversation as { id?: unknown } | undefined;
  const scope = typeof conversation?.id === 'string' ? conversation.id : conversationId;
  let changed = false;
  const own = typeof node.conversationId === 'string' ? node.conversationId : undefined;
  if (own && typeof node.assistantKey === 'string' && node.assistant === undefined) {
    const step = (await lookup(lookups, own, node.assistantKey)) as { assistant?: unknown } | undefined;
    if (step?.assistant !== undefined) [node.assistant, changed] = [step.assistant, true];
  }
  if (own && typeof node.key === 'string' && typeof node.outputType === 'string' && node.output === undefined) {
    const stored = (await lookup(lookups, own, node.key)) as { output?: unknown } | undefined;
    if (stored?.output !== undefined) [node.output, changed] = [stored.output, true];
  }
  if (scope && node.role === 'stored' && typeof node.key === 'string' && node.message === undefined) {
    const step = (await lookup(lookups, scope, node.key)) as { assistant?: unknown } | undefined;
    if (step?.assistant !== undefined) [node.message, changed] = [step.assistant, true];
  }
  if (scope && node.type === 'stored-tool-result' && typeof node.toolCallId === 'string' && node.output === undefined) {
    const stored = (await lookup(lookups, scope, `tool:${node.toolCallId}`)) as { output?: unknown } | undefined;
    if (stored?.output !== undefined) [node.output, changed] = [stored.output, true];
  }
  for (const [name, child] of Object.entries(node)) {
    if (name === 'assistant' || name === 'output' || name === 'message') continue;
    if (await resolveValue(child, scope, lookups)) changed = true;
  }
  return changed;
}

function lookup(lookups: Lookups, conversationId: string, key: string): Promise<unknown> {
  const id = `${conversationId}\u0000${key}`;
  let found = lookups.cache.get(id);
  if (!found) {
    if (lookups.left <= 0) return Promise.resolve(undefined);
    lookups.left -= 1;
    found = lookups.store.getRecord(conversationId, key).catch(() => undefined);
    lookups.cache.set(id, found);
  }
  return found;
}
