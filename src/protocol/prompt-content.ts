import type { FilePart, ImagePart, TextPart } from 'ai';

/**
 * An image or file part whose data the client wrote to the conversation store (its prompt parts),
 * because the message was too large for workflow history. The activity that writes the message to
 * the conversation puts the data back.
 */
export interface StoredPromptPart {
  type: 'stored-part';
  /** What the part is: an AI SDK image part or file part. */
  part: 'image' | 'file';
  /** Key of the data in the store's prompt parts (`sha256:<hex>`). */
  key: string;
  /** Length of the data (base64 or a data URL) in characters. */
  bytes: number;
  mediaType?: string;
  filename?: string;
  providerOptions?: ImagePart['providerOptions'];
}

/**
 * One part of a user message as the workflow carries it: the AI SDK's text, image and file parts
 * with binary data as base64 and URLs as strings, so the part is JSON in history, or a reference to
 * data in the conversation store.
 */
export type PromptPart =
  | TextPart
  | (Omit<ImagePart, 'image'> & { image: string })
  | (Omit<FilePart, 'data'> & { data: string })
  | StoredPromptPart;

/**
 * Most bytes of inline data (base64 images and files, text) one user message may carry in workflow
 * history. A client with a conversation store writes the largest images and files of a larger
 * message there and sends references; without a store, larger files go by URL.
 */
export const maxPromptContentBytes = 256 * 1024;

/** A user message's content as the workflow receives it: text, or parts. */
export type InboxMessage = string | PromptPart[];

/** The text of a user message, with a marker per image or file, for events and previews. */
export function promptText(message: InboxMessage): string {
  if (typeof message === 'string') return message;
  return message
    .map((part) => {
      if (part.type === 'text') return part.text;
      const kind = part.type === 'stored-part' ? part.part : part.type;
      return `[${kind} ${part.mediaType ?? ''}]`.replace(' ]', ']');
    })
    .join(' ');
}

/** Bytes of a message's inline content: text and data, URLs counted as their length, stored parts as their key. */
export function promptContentBytes(parts: readonly PromptPart[]): number {
  return parts.reduce((sum, part) => sum + inlineValue(part).length, 0);
}

/** The part's inline value: its text, its data (base64, data URL or URL), or its store key. */
export function inlineValue(part: PromptPart): string {
  if (part.type === 'text') return part.text;
  if (part.type === 'image') return part.image;
  if (part.type === 'file') return part.data;
  return part.key;
}
