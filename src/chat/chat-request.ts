import { z } from 'zod';

/** A request the chat handler refuses, with the HTTP status and a reason the caller can act on. */
export class ChatRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ChatRequestError';
  }
}

/** Chat ids become workflow ids: letters, digits and `-_.:@`, at most 200 characters. */
export const chatIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:@-]+$/, 'use letters, digits and - _ . : @ only');

const partSchema = z
  .object({
    type: z.string().max(200),
    text: z.string().optional(),
    toolCallId: z.string().max(500).optional(),
    state: z.string().max(50).optional(),
    input: z.unknown().optional(),
    /** A client-side tool's result (`addToolOutput`), with `state: 'output-available'`. */
    output: z.unknown().optional(),
    /** A client-side tool's failure (`addToolOutput({ state: 'output-error' })`). */
    errorText: z.string().max(100_000).optional(),
    preliminary: z.boolean().optional(),
    approval: z
      .object({
        id: z.string().max(500),
        approved: z.boolean().optional(),
        reason: z.string().max(4000).optional(),
        signature: z.string().max(500).optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

const messageSchema = z
  .object({
    id: z.string().max(500),
    role: z.enum(['user', 'assistant', 'system']),
    parts: z.array(partSchema).max(10_000),
    metadata: z.unknown().optional(),
  })
  .passthrough();

/** One part of a UI message as the handler reads it (other fields pass through unread). */
export type ChatPart = z.infer<typeof partSchema>;
/** A UI message as the handler reads it. */
export type ChatMessage = z.infer<typeof messageSchema>;

/**
 * The body of `POST /api/chat`: useChat's (`id`, `messages`, `trigger`, `messageId`), or only the
 * last `message` (the page sends that, since the session keeps the conversation). `agent` picks
 * the agent when the chat starts; a `by` or `runtimeContext` in the body is ignored.
 */
export const chatBodySchema = z
  .object({
    id: chatIdSchema,
    messages: z.array(messageSchema).max(100_000).optional(),
    message: messageSchema.optional(),
    trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
    messageId: z.string().max(500).optional(),
    agent: z.string().min(1).max(200).optional(),
  })
  .refine((body) => body.message !== undefined || (body.messages?.length ?? 0) > 0, {
    message: 'the body needs `messages` (useChat sends them) or the last `message`',
  });

/** A validated chat request body. */
export type ChatBody = z.infer<typeof chatBodySchema>;

/** Reads and validates a POST body: at most `maxBytes`, JSON, in the shape useChat sends. */
export async function readChatBody(request: Request, maxBytes: number): Promise<ChatBody> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared, maxBytes);
  const text = await readLimited(request, maxBytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ChatRequestError(400, `The body is not JSON (${(error as Error).message}); send useChat's JSON body.`);
  }
  const parsed = chatBodySchema.safeParse(json);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
    throw new ChatRequestError(400, `Malformed chat request: ${reasons.slice(0, 5).join('; ')}.`);
  }
  return parsed.data;
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) throw new ChatRequestError(400, "The body is empty; send useChat's JSON body.");
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(size, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(size: number, maxBytes: number): ChatRequestError {
  return new ChatRequestError(
    413,
    `The body has ${size} bytes or more, over the limit of ${maxBytes}. Send only the last message ` +
      '(prepareSendMessagesRequest) or raise maxBodyBytes of createChatHandler.',
  );
}
