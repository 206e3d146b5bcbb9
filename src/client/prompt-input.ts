import type { UIMessage, UserContent, UserModelMessage } from 'ai';
import { CadreError } from '../errors';
import { maxPromptContentBytes, promptContentBytes, type PromptPart, promptText } from '../protocol/prompt-content';

/**
 * What `start` and `run` take as a user message: text, the AI SDK's user content (text, image and
 * file parts), a whole user `ModelMessage`, or a user `UIMessage` (its text and file parts).
 */
export type AgentPrompt = string | UserContent | UserModelMessage | UIMessage;

/** A prompt as the workflow input carries it: `prompt` for text, `promptContent` for parts. */
export interface PromptInput {
  prompt?: string;
  promptContent?: PromptPart[];
}

/** Options of `promptInput` and `messageInput`. */
export interface PromptInputOptions {
  /** Refuse content over `maxPromptContentBytes` (default); false when the caller stores large parts (`storeLargeParts`). */
  sizeLimit?: boolean;
}

/**
 * Turns a prompt into workflow input: binary data to base64, URLs to strings. Content over
 * `maxPromptContentBytes` is refused with an error that says to send such files by URL.
 */
export function promptInput(prompt: AgentPrompt | undefined, options: PromptInputOptions = {}): PromptInput {
  if (prompt === undefined) return {};
  const content = typeof prompt === 'object' && !Array.isArray(prompt) ? contentOf(prompt) : prompt;
  if (typeof content === 'string') return { prompt: content };
  const parts = content.map((part): PromptPart => {
    if (part.type === 'text') return part;
    if (part.type === 'image') return { ...part, image: dataString(part.image, 'image') };
    return { ...part, data: dataString(part.data, `file (${part.mediaType})`) };
  });
  const bytes = promptContentBytes(parts);
  if (options.sizeLimit !== false && bytes > maxPromptContentBytes) {
    throw new CadreError(
      'PromptTooLarge',
      `The prompt carries ${bytes} bytes of inline content (base64 included), more than the ${maxPromptContentBytes} ` +
        'a message may carry through workflow history. Send large images and files as URLs ' +
        "({ type: 'image', image: new URL('https://...') }), which the model's provider downloads.",
    );
  }
  return { promptContent: parts };
}

/** A user message as the `sendMessage` signal carries it: its text, and its parts when it has more than text. */
export interface MessageInput {
  text: string;
  content?: PromptPart[];
}

/**
 * Turns a message for a running session into the `sendMessage` signal's input: the same inputs,
 * and the same size check (see `options`), as a prompt. An empty message (no text, no parts) is refused.
 */
export function messageInput(message: AgentPrompt, options: PromptInputOptions = {}): MessageInput {
  if (typeof message === 'string') {
    if (message.trim().length === 0)
      throw new TypeError(`A message must be a non-empty string; got ${JSON.stringify(message)}.`);
    return { text: message };
  }
  if (message === null || typeof message !== 'object') {
    throw new TypeError(
      `A message must be text, content parts, a user ModelMessage or a user UIMessage; got ${describe(message)}.`,
    );
  }
  const input = promptInput(message, options);
  if (input.prompt !== undefined) return messageInput(input.prompt);
  const content = input.promptContent ?? [];
  const text = promptText(content);
  if (content.length === 0) {
    throw new TypeError('A message needs at least one part (text, image or file); got none.');
  }
  return { text, content };
}

/** A message's content; a `UIMessage`'s text and file parts (a file's `url`, often a data URL, is its data). */
function contentOf(message: UserModelMessage | UIMessage): UserContent {
  if (!('parts' in message)) return message.content;
  if (message.role !== 'user') {
    throw new CadreError(
      'UnsupportedPrompt',
      `A UIMessage prompt must have role 'user', not '${message.role}'. Pass the user's message.`,
    );
  }
  return message.parts.flatMap((part): Exclude<UserContent, string> => {
    if (part.type === 'text') return [{ type: 'text', text: part.text }];
    if (part.type === 'file') {
      return [
        {
          type: 'file',
          data: part.url,
          mediaType: part.mediaType,
          ...(part.filename ? { filename: part.filename } : {}),
        },
      ];
    }
    return [];
  });
}

/** Binary data as base64, a URL as its string; strings are kept (base64 or a URL already). */
function dataString(data: unknown, what: string): string {
  if (typeof data === 'string') return data;
  if (data instanceof URL) return data.toString();
  if (data instanceof Uint8Array) return Buffer.from(data).toString('base64');
  if (data instanceof ArrayBuffer) return Buffer.from(new Uint8Array(data)).toString('base64');
  throw new CadreError(
    'UnsupportedPromptPart',
    `An ${what} part of the prompt has data Cadre cannot send through history (${describe(data)}). ` +
      'Give its data as a base64 string, a Uint8Array, an ArrayBuffer or a URL.',
  );
}

function describe(data: unknown): string {
  return data === null ? 'null' : typeof data === 'object' ? (data.constructor?.name ?? 'an object') : typeof data;
}
