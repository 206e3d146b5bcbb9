import type { FilePart, ImagePart, TextPart } from 'ai';

/**
 * One part of a user message as the workflow carries it: the AI SDK's text, image and file parts
 * with binary data as base64 and URLs as strings, so the part is JSON in history.
 */
export type PromptPart =
  TextPart | (Omit<ImagePart, 'image'> & { image: string }) | (Omit<FilePart, 'data'> & { data: string });

/**
 * Most bytes of inline data (base64 images and files, text) one user message may carry: it travels
 * in workflow history until the next step writes it to the store. Larger files go by URL.
 */
export const maxPromptContentBytes = 256 * 1024;

/** A user message's content as the workflow receives it: text, or parts. */
export type InboxMessage = string | PromptPart[];

/** The text of a user message, with a marker per image or file, for events and previews. */
export function promptText(message: InboxMessage): string {
  if (typeof message === 'string') return message;
  return message
    .map((part) => (part.type === 'text' ? part.text : `[${part.type} ${part.mediaType ?? ''}]`.replace(' ]', ']')))
    .join(' ');
}

/** Bytes of a message's inline content: text and data, URLs counted as their length. */
export function promptContentBytes(parts: readonly PromptPart[]): number {
  return parts.reduce((sum, part) => {
    const value = part.type === 'text' ? part.text : part.type === 'image' ? part.image : part.data;
    return sum + value.length;
  }, 0);
}
