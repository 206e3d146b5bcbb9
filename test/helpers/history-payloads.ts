import type { Payload } from '@temporalio/common';

/**
 * Every payload of a history, except search attributes, headers, patch markers and a local
 * activity marker's `data`, which no codec touches: the SDK's core writes a patch marker's id and
 * a local activity's sequence number, attempt, ids and times itself; they hold no content.
 */
export function payloadsOf(value: unknown, found: Payload[] = []): Payload[] {
  if (!value || typeof value !== 'object') return found;
  const record = value as Record<string, unknown>;
  const marker = record.markerRecordedEventAttributes as
    { markerName?: string; details?: Record<string, unknown>; failure?: unknown } | undefined;
  if (marker?.markerName === 'core_patch') return found;
  if (marker?.markerName === 'core_local_activity') {
    payloadsOf(marker.details?.result, found);
    return payloadsOf(marker.failure, found);
  }
  if (record.metadata && typeof record.metadata === 'object' && record.data instanceof Uint8Array) {
    found.push(record as Payload);
    return found;
  }
  for (const [name, child] of Object.entries(record)) {
    if (name === 'searchAttributes' || name === 'header') continue;
    if (Array.isArray(child)) for (const each of child) payloadsOf(each, found);
    else payloadsOf(child, found);
  }
  return found;
}

/** The three base64 spellings of `text`, whatever its offset in the encoded bytes. */
export function base64Spellings(text: string): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(text)]).toString('base64');
    return encoded.slice(Math.ceil((offset * 4) / 3) + 1, -4);
  });
}

/**
 * Expects none of `values` in `bytes`, neither raw nor in base64 (whether the bytes hold the
 * value's base64 or are themselves encoded); `where` names the place on failure.
 */
export function expectNoneOf(values: string[], bytes: Buffer, where: string): void {
  const asBase64 = bytes.toString('base64');
  for (const value of values) {
    expect({ where, value, raw: bytes.includes(value) }).toEqual({ where, value, raw: false });
    for (const spelling of base64Spellings(value)) {
      expect({ where, value, spelling, found: bytes.includes(spelling) || asBase64.includes(spelling) }).toEqual({
        where,
        value,
        spelling,
        found: false,
      });
    }
    expect(bytes.includes(Buffer.from(value).toString('base64').slice(0, -2))).toBe(false);
  }
}

/** The `encoding` metadata of a payload, e.g. `binary/encrypted` or `json/plain`. */
export const encodingOf = (payload: Payload): string =>
  new TextDecoder().decode(payload.metadata?.encoding ?? new Uint8Array());
