import { WorkflowNotFoundError } from '@temporalio/client';
import type { AgentClient } from '../client/agent-client';
import type { StreamCursor } from '../client/tree-stream';
import type { AgentStatusReport } from '../protocol/definitions';
import { eventsQuery } from '../protocol/definitions';
import { type ChatMessage, ChatRequestError, chatIdSchema, readChatBody } from './chat-request';
import { type ChatMessageMetadata, lastTurnStart, turnMessageId, unansweredTurnId } from './chat-turns';
import { runLookups } from './run-lookups';
import { editedOrdinal, forkChatAt, restoredChat } from './chat-edit';
import { callKey, submitToolOutputs, toolOutputParts } from './client-tool-outputs';
import { deliverChatMessage } from './chat-delivery';
import { readTree } from './tree-follower';
import { turnResponse } from './turn-response';
import { noUsage, parseTotals, treeTotals } from './turn-usage';

/** Who is chatting, as `authorize` establishes it. */
export interface ChatUser {
  /** Recorded as `by` on every approval this user decides. */
  id: string;
  /** Extra runtime context for a chat this user starts (e.g. `{ role: 'admin' }`); `user` is set to `id`. */
  runtimeContext?: Record<string, unknown>;
}

/** Settings of `createChatHandler`. */
export interface ChatHandlerOptions {
  /** The client that starts and reads the chats' runs. */
  client: AgentClient;
  /** Agents a chat may start (the body's `agent`); the first is the default. */
  agents: string[];
  /**
   * Establishes the user from the request, or refuses it with a Response (401, 403). Without it
   * every request is the user `chat-user`: only for a page on your own machine.
   */
  authorize?: (request: Request) => ChatUser | Response | Promise<ChatUser | Response>;
  /**
   * Where the endpoints live.
   * @default `/api/chat`
   */
  basePath?: string;
  /**
   * The session workflow id of a chat. Scope it by user to keep chats apart.
   * @default the chat id itself
   */
  workflowId?: (chatId: string, user: ChatUser) => string;
  /**
   * Largest POST body.
   * @default 1 MB
   */
  maxBodyBytes?: number;
  /**
   * A response ends after this long even if the run goes on (the page resumes it).
   * @default 10 minutes
   */
  streamTimeoutMs?: number;
  /**
   * Set Cadre's search attributes on new sessions.
   * @default true
   */
  searchAttributes?: boolean;
}

/** A Fetch API handler: Next.js route handlers, Hono, Deno, Bun, and `toNodeListener` for node:http and Express. */
export type ChatHandler = (request: Request) => Promise<Response>;

/**
 * A durable backend for the AI SDK's `useChat`: each chat is a Cadre session workflow. Endpoints
 * (under `basePath`): `POST /` sends a message, approval decisions or client-side tool results
 * (`addToolOutput`) and streams the activation; `GET /:id/stream` resumes it (204 when nothing runs); `GET /:id/messages` restores the chat as
 * `UIMessage[]`; a POST that edits an earlier user message forks the chat there into a new chat
 * (`metadata.cadre.chatId`); `POST /:id/stop` interrupts the activation; `GET /agents` lists the agents.
 * @example
 * const chat = createChatHandler({ client: await AgentClient.connect(), agents: ['file-manager'], authorize });
 * export const POST = chat; // Next.js app/api/chat/[[...path]]/route.ts, with GET = chat
 */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const basePath = (options.basePath ?? '/api/chat').replace(/\/$/, '');
  const maxBodyBytes = options.maxBodyBytes ?? 1_000_000;
  if (options.agents.length === 0) throw new TypeError('createChatHandler needs at least one agent in `agents`.');
  return async (request) => {
    try {
      const path = new URL(request.url).pathname;
      if (path !== basePath && !path.startsWith(`${basePath}/`))
        return json(404, { error: `No chat endpoint at ${path}.` });
      const user = await authorize(options, request);
      if (user instanceof Response) return user;
      const segments = path.slice(basePath.length).split('/').filter(Boolean).map(decodeURIComponent);
      if (request.method === 'POST' && segments.length === 0)
        return await postChat(options, user, request, maxBodyBytes);
      if (request.method === 'GET' && segments.length === 1 && segments[0] === 'agents') {
        return json(200, { agents: options.agents });
      }
      const [chatId, action] = segments;
      if (segments.length === 2 && chatId !== undefined) {
        const workflowId = sessionId(options, chatId, user);
        if (request.method === 'GET' && action === 'stream') return await resumeChat(options, workflowId, request);
        if (request.method === 'GET' && action === 'messages') return await restoreChat(options, workflowId);
        if (request.method === 'POST' && action === 'stop') return await stopChat(options, workflowId);
      }
      return json(404, {
        error: `No chat endpoint for ${request.method} ${path}. Use POST ${basePath}, GET ${basePath}/:id/stream, GET ${basePath}/:id/messages or POST ${basePath}/:id/stop.`,
      });
    } catch (error) {
      if (error instanceof ChatRequestError) return json(error.status, { error: error.message });
      return json(500, { error: `The chat request failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  };
}

async function authorize(options: ChatHandlerOptions, request: Request): Promise<ChatUser | Response> {
  if (!options.authorize) return { id: 'chat-user' };
  const user = await options.authorize(request);
  if (user instanceof Response) return user;
  if (!user || typeof user.id !== 'string' || user.id.length === 0) {
    return json(401, { error: 'Not signed in: authorize returned no user.' });
  }
  return user;
}

/** Statuses of a session in the middle of a turn: a message sent then is answered from its own user message on. */
const busyStatuses = new Set(['starting', 'running', 'awaiting-approval', 'awaiting-tool-result', 'needs-attention']);

function sessionId(options: ChatHandlerOptions, chatId: string, user: ChatUser): string {
  const parsed = chatIdSchema.safeParse(chatId);
  if (!parsed.success)
    throw new ChatRequestError(400, `Invalid chat id '${chatId}': ${parsed.error.issues[0]?.message}.`);
  return options.workflowId ? options.workflowId(chatId, user) : chatId;
}

function metadataOf(options: ChatHandlerOptions, workflowId: string): ChatMessageMetadata {
  const uiUrl = options.client.getHandle(workflowId).uiUrl();
  return { cadre: { workflowId, ...(uiUrl ? { uiUrl } : {}) } };
}

async function postChat(options: ChatHandlerOptions, user: ChatUser, request: Request, maxBodyBytes: number) {
  const body = await readChatBody(request, maxBodyBytes);
  const workflowId = sessionId(options, body.id, user);
  const last = body.message ?? body.messages?.at(-1);
  if (!last) throw new ChatRequestError(400, 'The body has no message.');
  // An edit (`sendMessage({ messageId })`) or a regenerate resends an earlier user message: the chat forks there.
  if (last.role === 'user' && (body.trigger === 'regenerate-message' || body.messageId === last.id)) {
    const edited = await editChat(options, user, workflowId, last, request);
    if (edited) return edited;
  }
  if (body.trigger === 'regenerate-message') {
    throw new ChatRequestError(
      400,
      'Regenerate needs the user message before the answer, with the id the chat gave it (GET /:id/messages).',
    );
  }
  const client = options.client;
  const maxMs = options.streamTimeoutMs ?? 600_000;
  const metadata = metadataOf(options, workflowId);
  if (last.role === 'user') {
    const text = userText(last);
    const agent = body.agent ?? options.agents[0] ?? '';
    if (!options.agents.includes(agent)) {
      throw new ChatRequestError(400, `Unknown agent '${agent}'; this endpoint serves: ${options.agents.join(', ')}.`);
    }
    const before = await statusOf(client, workflowId);
    const from: StreamCursor = { [workflowId]: before ? await eventCount(client, workflowId) : 0 };
    // The turn's usage is what the tree's totals grow by from here to the settled response.
    const usageFrom = before ? await treeTotals(client, workflowId) : noUsage;
    const midTurn = before !== undefined && busyStatuses.has(before.status);
    // Read before the message goes out: once delivered, it could start a turn of its own that answers at once.
    const joinsTurn = midTurn
      ? await unansweredTurnId(workflowId, (await readTree(client, workflowId)).events, runLookups(client, workflowId))
      : undefined;
    await deliverChatMessage(
      client,
      {
        agent,
        workflowId,
        // The identity comes from authorize, never from the body.
        runtimeContext: { ...user.runtimeContext, user: user.id },
        searchAttributes: options.searchAttributes,
      },
      text,
      before !== undefined,
    );
    const activationsAbove = !before ? 0 : before.status === 'idle' ? before.activations : undefined;
    return turnResponse({
      awaitUserMessage: midTurn,
      joinsTurn,
      client,
      workflowId,
      from,
      settle: { activationsAbove, decided: new Set() },
      metadata,
      usageFrom,
      signal: request.signal,
      maxMs,
    });
  }
  const decisions = last.parts.filter(
    (part) => part.state === 'approval-responded' && part.approval?.approved !== undefined,
  );
  const outputs = toolOutputParts(last.parts);
  const nothingAnswered = () =>
    new ChatRequestError(
      400,
      'The last message answers no approval and no waiting client-side tool call; send a user message, approval responses or tool outputs (addToolOutput).',
    );
  if (decisions.length === 0 && outputs.length === 0) throw nothingAnswered();
  if (!(await statusOf(client, workflowId))) throw new ChatRequestError(404, `There is no chat '${body.id}'.`);
  const { events, cursor: now } = await readTree(client, workflowId);
  const turnStart = lastTurnStart(workflowId, events) ?? 0;
  const handle = client.getHandle(workflowId);
  const decided = new Set<string>();
  const errors: string[] = [];
  for (const part of decisions) {
    const approval = part.approval as NonNullable<typeof part.approval>;
    try {
      if (approval.approved) {
        await handle.approve(approval.id, {
          by: user.id,
          reason: approval.reason,
          signature: approval.signature,
          input: part.input,
        });
      } else {
        await handle.deny(approval.id, { by: user.id, reason: approval.reason });
      }
      decided.add(approval.id);
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  // Results of client-side tools (addToolOutput) go to the run whose call waits for them.
  const answered = outputs.length > 0 ? await submitToolOutputs(client, workflowId, outputs, user.id) : undefined;
  if (decisions.length === 0 && !answered?.matched) throw nothingAnswered();
  errors.push(...(answered?.errors ?? []));
  const messageId = turnMessageId(workflowId, turnStart);
  return turnResponse({
    client,
    workflowId,
    messageId,
    from: { [workflowId]: turnStart },
    suppressBefore: (last.id === messageId ? clientCursor(last) : undefined) ?? now,
    settle: { decided, submitted: new Set((answered?.submitted ?? []).map(callKey)) },
    metadata,
    // The page's copy of the turn says where its usage is measured from.
    usageFrom: last.id === messageId ? parseTotals(metadataOfMessage(last)?.usageFrom) : undefined,
    errors,
    signal: request.signal,
    maxMs,
  });
}

/** Forks the chat at the edited user message into a new chat and streams the new chat's answer; undefined when the id is not one of the chat's. */
async function editChat(
  options: ChatHandlerOptions,
  user: ChatUser,
  workflowId: string,
  edited: ChatMessage,
  request: Request,
): Promise<Response | undefined> {
  const status = await statusOf(options.client, workflowId);
  if (!status) return undefined;
  const restored = await restoredChat(options.client, workflowId, (id) => metadataOf(options, id));
  const ordinal = editedOrdinal(restored, edited.id);
  if (ordinal === undefined) return undefined;
  const text = userText(edited);
  const newWorkflowId = (chatId: string) => sessionId(options, chatId, user);
  const fork = await forkChatAt(options.client, workflowId, ordinal, text, newWorkflowId, status.agent);
  const metadata = metadataOf(options, fork.workflowId);
  metadata.cadre.chatId = fork.chatId;
  const response = turnResponse({
    client: options.client,
    workflowId: fork.workflowId,
    from: { [fork.workflowId]: 0 },
    settle: { activationsAbove: 0, decided: new Set() },
    metadata,
    signal: request.signal,
    maxMs: options.streamTimeoutMs ?? 600_000,
  });
  const headers = new Headers(response.headers);
  headers.set('x-cadre-chat-id', fork.chatId);
  return new Response(response.body, { status: response.status, headers });
}

function userText(message: ChatMessage): string {
  const text = message.parts.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])).join('\n');
  if (text.trim().length === 0) throw new ChatRequestError(400, 'The user message has no text part; send some text.');
  return text;
}

async function resumeChat(options: ChatHandlerOptions, workflowId: string, request: Request): Promise<Response> {
  const status = await statusOf(options.client, workflowId);
  const running = status && (status.status === 'running' || status.status === 'starting' || status.pendingMessages > 0);
  if (!running) return new Response(null, { status: 204 });
  const { events } = await readTree(options.client, workflowId);
  const turnStart = lastTurnStart(workflowId, events);
  if (turnStart === undefined) return new Response(null, { status: 204 });
  return turnResponse({
    client: options.client,
    workflowId,
    messageId: turnMessageId(workflowId, turnStart),
    from: { [workflowId]: turnStart },
    settle: { decided: new Set() },
    metadata: metadataOf(options, workflowId),
    signal: request.signal,
    maxMs: options.streamTimeoutMs ?? 600_000,
  });
}

async function restoreChat(options: ChatHandlerOptions, workflowId: string): Promise<Response> {
  const status = await statusOf(options.client, workflowId);
  if (!status) return json(200, []);
  return json(200, await restoredChat(options.client, workflowId, (id) => metadataOf(options, id), 0, status));
}

async function stopChat(options: ChatHandlerOptions, workflowId: string): Promise<Response> {
  if (!(await statusOf(options.client, workflowId))) return json(404, { error: `There is no chat '${workflowId}'.` });
  await options.client.getHandle(workflowId).interrupt();
  return new Response(null, { status: 204 });
}

/** The session's status, or undefined when no such workflow exists. */
async function statusOf(client: AgentClient, workflowId: string): Promise<AgentStatusReport | undefined> {
  try {
    return await client.getHandle(workflowId).status();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return undefined;
    throw error;
  }
}

/** How many events the root has logged: a new response starts reading there. */
async function eventCount(client: AgentClient, workflowId: string): Promise<number> {
  const page = await client.client.workflow.getHandle(workflowId).query(eventsQuery, { from: Number.MAX_SAFE_INTEGER });
  return page.next;
}

/** The cursor the page's copy of the message was written up to, from its metadata. */
function clientCursor(message: ChatMessage): StreamCursor | undefined {
  const cursor = metadataOfMessage(message)?.cursor;
  if (!cursor || typeof cursor !== 'object') return undefined;
  const entries = Object.entries(cursor);
  if (!entries.every(([, value]) => Number.isSafeInteger(value) && value >= 0)) return undefined;
  return Object.fromEntries(entries);
}

function metadataOfMessage(message: ChatMessage): Partial<ChatMessageMetadata['cadre']> | undefined {
  return (message.metadata as Partial<ChatMessageMetadata> | undefined)?.cadre;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
