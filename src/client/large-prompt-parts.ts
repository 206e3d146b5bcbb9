import { CadreError } from '../errors';
import {
  inlineValue,
  maxPromptContentBytes,
  promptContentBytes,
  type PromptPart,
  type StoredPromptPart,
} from '../protocol/prompt-content';
import { promptPartKey } from '../store/prompt-parts';
import type { LazyStore } from './lazy-store';

/** Characters of a stored part's key in history (`sha256:` and 64 hex digits). */
const keyLength = promptPartKey('').length;

/**
 * Keeps a message within what workflow history may carry: when its inline content passes
 * `maxPromptContentBytes`, its largest images and files are written to the conversation store
 * (until the rest fits) and the message carries their keys. The model step reads them back.
 * Fails with `PromptTooLarge` when the store cannot be opened, or when the text alone is too long.
 */
export async function storeLargeParts(parts: PromptPart[], store: LazyStore): Promise<PromptPart[]> {
  const total = promptContentBytes(parts);
  if (total <= maxPromptContentBytes) return parts;
  const largestFirst = parts
    .map((part, index) => ({ part, index }))
    .filter(({ part }) => part.type === 'image' || part.type === 'file')
    .sort((a, b) => inlineValue(b.part).length - inlineValue(a.part).length);
  const chosen: number[] = [];
  let bytes = total;
  for (const { part, index } of largestFirst) {
    if (bytes <= maxPromptContentBytes) break;
    chosen.push(index);
    bytes -= inlineValue(part).length - keyLength;
  }
  if (bytes > maxPromptContentBytes) {
    throw new CadreError(
      'PromptTooLarge',
      `The prompt's text carries ${bytes} bytes, more than the ${maxPromptContentBytes} a message may carry through ` +
        'workflow history (large images and files go to the conversation store; text stays in the message). ' +
        "Send long text as a file part ({ type: 'file', data, mediaType: 'text/plain' }) or split it over several messages.",
    );
  }
  const opened = await store.get().catch((error: unknown) => {
    throw new CadreError(
      'PromptTooLarge',
      `The prompt carries ${total} bytes of inline content (base64 included), more than the ${maxPromptContentBytes} ` +
        'a message may carry through workflow history, and the conversation store that takes larger images and files ' +
        `could not be opened: ${(error as Error)?.message ?? String(error)} Give the client the workers' store ` +
        "(AgentClient.connect({ store }) or CADRE_STORE_URL), or send large images and files as URLs ({ type: 'image', image: new URL('https://...') }).",
    );
  });
  const result = [...parts];
  for (const index of chosen) {
    const part = parts[index] as Exclude<PromptPart, { type: 'text' } | StoredPromptPart>;
    const data = inlineValue(part);
    const key = await opened.promptParts.put(data);
    result[index] = {
      type: 'stored-part',
      part: part.type,
      key,
      bytes: data.length,
      ...(part.mediaType !== undefined ? { mediaType: part.mediaType } : {}),
      ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
      ...(part.providerOptions ? { providerOptions: part.providerOptions } : {}),
    };
  }
  return result;
}
