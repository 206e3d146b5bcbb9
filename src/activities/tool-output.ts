import type { ToolResultPart } from 'ai';

type ToolOutput = ToolResultPart['output'];
type ContentPart = Extract<ToolOutput, { type: 'content' }>['value'][number];

/** How much of a tool output the model may see: characters of text, bytes of every kind. */
export interface ToolOutputLimits {
  maxChars: number;
  maxBytes: number;
}

/** The AI SDK's default mapping of a tool's return value to what the model sees. */
export function toToolOutput(value: unknown): ToolOutput {
  if (typeof value === 'string') return { type: 'text', value };
  return { type: 'json', value: (value ?? null) as never };
}

/**
 * Fits an output of any kind within the limits, always visibly. Text and JSON are cut with a
 * marker; in content, text parts are cut and a binary part (file, image, media data) that does
 * not fit is replaced by a marker naming its type and size; an output left with nothing but such
 * markers becomes an error result naming the limit. Binary data is made base64 text on the way.
 * A bare number is `maxChars` alone.
 */
export function limitToolOutput(output: ToolOutput, limitsOrMaxChars: ToolOutputLimits | number): ToolOutput {
  const limits =
    typeof limitsOrMaxChars === 'number'
      ? { maxChars: limitsOrMaxChars, maxBytes: Number.POSITIVE_INFINITY }
      : limitsOrMaxChars;
  switch (output.type) {
    case 'text':
    case 'error-text': {
      const cut = cutText(output.value, limits);
      return cut === output.value ? output : { type: output.type, value: cut };
    }
    case 'json':
    case 'error-json': {
      const text = JSON.stringify(output.value) ?? 'null';
      if (text.length <= limits.maxChars && byteLength(text) <= limits.maxBytes) return output;
      return limitText(output.type === 'json' ? 'text' : 'error-text', text, limits);
    }
    case 'execution-denied': {
      if (output.reason === undefined) return output;
      const cut = cutText(output.reason, limits);
      return cut === output.reason ? output : { ...output, reason: cut };
    }
    case 'content':
      return limitContent(output.value, limits);
    default: {
      // A kind this version does not know: keep it when it fits, otherwise say so.
      const bytes = byteLength(JSON.stringify(output) ?? '');
      return bytes <= limits.maxBytes
        ? output
        : tooLarge(`a '${(output as { type: string }).type}' output`, bytes, limits);
    }
  }
}

function limitText(type: 'text' | 'error-text', text: string, limits: ToolOutputLimits): ToolOutput {
  return { type, value: cutText(text, limits) };
}

/** `text` itself when it fits, else its longest prefix within both limits plus a marker saying what was kept. */
function cutText(text: string, limits: ToolOutputLimits): string {
  if (text.length <= limits.maxChars && byteLength(text) <= limits.maxBytes) return text;
  const byBytes = byteLength(text.slice(0, limits.maxChars)) > limits.maxBytes;
  const marker = (kept: number) =>
    `\n[output truncated by Cadre: showing the first ${kept} of ${text.length} characters` +
    (byBytes ? `; maxToolOutputBytes is ${limits.maxBytes}]` : ']');
  let kept = Math.min(text.length, limits.maxChars);
  if (byBytes) {
    // The longest prefix that fits with its marker (characters take 1 to 4 bytes): a binary search.
    const fits = (count: number) => byteLength(text.slice(0, count)) + byteLength(marker(count)) <= limits.maxBytes;
    let low = 0;
    let high = kept;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fits(middle)) low = middle;
      else high = middle - 1;
    }
    kept = low;
  }
  return text.slice(0, kept) + marker(kept);
}

function limitContent(parts: ContentPart[], limits: ToolOutputLimits): ToolOutput {
  let chars = limits.maxChars;
  let bytes = limits.maxBytes;
  let kept = 0;
  const omitted: string[] = [];
  const value: ContentPart[] = [];
  for (const original of parts) {
    const part = withTextData(original);
    const text = textOf(part);
    if (text !== undefined) {
      const cut = cutText(text, { maxChars: Math.max(chars, 0), maxBytes: Math.max(bytes, 0) });
      chars -= Math.min(text.length, chars);
      bytes -= byteLength(cut);
      value.push(withText(part, cut));
      kept += 1;
      continue;
    }
    const size = byteLength(JSON.stringify(part) ?? '');
    if (size <= bytes) {
      value.push(part);
      bytes -= size;
      kept += 1;
      continue;
    }
    const what = describePart(part);
    omitted.push(what);
    value.push({
      type: 'text',
      text:
        `[${what} of ${size} bytes omitted by Cadre: it does not fit in maxToolOutputBytes ${limits.maxBytes} ` +
        '(binary data cannot be cut)]',
    });
  }
  if (kept === 0 && omitted.length > 0) {
    const size = parts.reduce((total, part) => total + byteLength(JSON.stringify(withTextData(part)) ?? ''), 0);
    return tooLarge(`content (${omitted.join(', ')})`, size, limits);
  }
  return { type: 'content', value };
}

/** The error result of an output that cannot be cut. */
function tooLarge(what: string, bytes: number, limits: ToolOutputLimits): ToolOutput {
  return {
    type: 'error-text',
    value:
      `Error: the tool returned ${what} of ${bytes} bytes, more than maxToolOutputBytes ${limits.maxBytes}, ` +
      'and binary data cannot be cut. Return a smaller file, a URL or a reference to it, or raise maxToolOutputBytes.',
  };
}

/** The text of a text part or of an inline text file, which can be cut like text. */
function textOf(part: ContentPart): string | undefined {
  if (part.type === 'text') return part.text;
  if (part.type === 'file' && part.data.type === 'text') return part.data.text;
  return undefined;
}

function withText(part: ContentPart, text: string): ContentPart {
  if (part.type === 'text') return { ...part, text };
  if (part.type === 'file' && part.data.type === 'text') return { ...part, data: { ...part.data, text } };
  return part;
}

/** A part whose raw bytes (Uint8Array, ArrayBuffer, Buffer) are base64 text, so it survives JSON in history and the store. */
function withTextData(part: ContentPart): ContentPart {
  if (part.type !== 'file' || part.data.type !== 'data' || typeof part.data.data === 'string') return part;
  const raw = part.data.data;
  const buffer =
    raw instanceof ArrayBuffer ? Buffer.from(raw) : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  return { ...part, data: { ...part.data, data: buffer.toString('base64') } };
}

function describePart(part: ContentPart): string {
  const mediaType = 'mediaType' in part && typeof part.mediaType === 'string' ? ` ${part.mediaType}` : '';
  return `a '${part.type}'${mediaType} part`;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
