/**
 * `cadre/chat` (server side): a durable backend for the AI SDK's `useChat`, as a Fetch API
 * handler, a node:http adapter, and a server that also serves the chat page.
 */
import '../peers/assert-peers';
export { createChatHandler } from './chat-handler';
export type { ChatHandler, ChatHandlerOptions, ChatUser } from './chat-handler';
export { toNodeListener, toFetchRequest } from './node-adapter';
export { startChatServer } from './chat-server';
export type { ChatServer, ChatServerOptions } from './chat-server';
export { sendToSession } from './session-start';
export type { SubagentProgress } from './subagent-progress';
export type { ChatMessageMetadata } from './chat-turns';
export { ChatRequestError } from './chat-request';
