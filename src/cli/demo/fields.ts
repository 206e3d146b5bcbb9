import type { MessageReading } from './reading';

/** The part of a tool's JSON schema the demo model reads. */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
};

/** What a tool input field asks for, judged from its name, description and type. */
export type FieldKind =
  | 'path'
  | 'zone'
  | 'amount'
  | 'recipient'
  | 'url'
  | 'email'
  | 'id'
  | 'date'
  | 'number'
  | 'boolean'
  | 'choice'
  | 'text'
  | 'structured';

/** A tool's input as the demo model fills it from a message, or the fields it could not fill. */
export type FilledInput =
  | { input: Record<string, unknown>; kinds: Record<string, FieldKind> }
  | { missing: Array<{ field: string; kind: FieldKind }> };

/** The kind of a field: a name or description that says "path", "time zone", "amount", ... wins over its type. */
export function fieldKind(name: string, schema: JsonSchema): FieldKind {
  const type = Array.isArray(schema.type) ? schema.type.find((each) => each !== 'null') : schema.type;
  const named = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  const said = `${named} ${schema.description ?? ''}`.toLowerCase();
  if (schema.enum && schema.enum.length > 0) return 'choice';
  if (type === 'boolean') return 'boolean';
  if (type === 'array' || type === 'object') return 'structured';
  if (type === 'number' || type === 'integer')
    return /\b(?:amount|price|cost|total|sum|euros?|dollars?|currency)\b/.test(said) ? 'amount' : 'number';
  if (/\b(?:time ?zone|tz|iana)\b/.test(said)) return 'zone';
  if (/\b(?:url|uri|link|href)\b/.test(said)) return 'url';
  if (/\be-?mail\b/.test(said)) return 'email';
  if (/\b(?:path|file|filename|folder|directory|dir)\b/.test(said)) return 'path';
  if (/\b(?:recipient|payee|beneficiary|person|who|username|name|to)\b/.test(named)) return 'recipient';
  if (/\b(?:recipient|payee|beneficiary|person)\b/.test(said)) return 'recipient';
  if (/\b(?:id|identifier|number)\b/.test(named)) return 'id';
  if (/\bdate\b/.test(said)) return 'date';
  if (/\b(?:amount|price|cost)\b/.test(named)) return 'amount';
  return 'text';
}

/** Kinds whose value has to be named in the message; free text can always take the message itself. */
export const namedKinds = new Set<FieldKind>(['path', 'zone', 'amount', 'recipient', 'url', 'email', 'id', 'date']);

/**
 * Fills the required fields of `schema` from `reading`, as a person would: values named in the
 * message, in order; a schema default; free text from a quote or (when `freeText`) the whole
 * message. A required field with none of these is missing. Optional fields keep their defaults.
 */
export function fillInput(
  schema: JsonSchema,
  reading: MessageReading,
  options: { freeText: boolean; defaultZone: boolean },
): FilledInput {
  const input: Record<string, unknown> = {};
  const kinds: Record<string, FieldKind> = {};
  const missing: Array<{ field: string; kind: FieldKind }> = [];
  const used = new Map<FieldKind, number>();
  const next = <T>(kind: FieldKind, values: T[]): T | undefined => {
    const index = used.get(kind) ?? 0;
    used.set(kind, index + 1);
    return values[index];
  };
  for (const field of schema.required ?? []) {
    const property = schema.properties?.[field] ?? {};
    const kind = fieldKind(field, property);
    kinds[field] = kind;
    const value = valueFor(kind, property, reading, next, options);
    if (value === undefined) missing.push({ field, kind });
    else input[field] = value;
  }
  return missing.length > 0 ? { missing } : { input, kinds };
}

function valueFor(
  kind: FieldKind,
  property: JsonSchema,
  reading: MessageReading,
  next: <T>(kind: FieldKind, values: T[]) => T | undefined,
  options: { freeText: boolean; defaultZone: boolean },
): unknown {
  const named = (): unknown => {
    switch (kind) {
      case 'path':
        return next(kind, reading.paths);
      case 'zone':
        return next(kind, reading.zones);
      case 'amount':
        return next(kind, reading.amounts);
      case 'recipient':
        return next(kind, [...reading.names, ...reading.emails]);
      case 'url':
        return next(kind, reading.urls);
      case 'email':
        return next(kind, reading.emails);
      case 'id':
        return next(kind, reading.ids);
      case 'date':
        return next(kind, reading.dates);
      case 'number':
        return next(
          kind,
          reading.numbers.filter((value) => !reading.amounts.includes(value)),
        );
      case 'choice':
        return property.enum?.find((value) => typeof value === 'string' && reading.words.has(value.toLowerCase()));
      case 'boolean':
      case 'structured':
        return undefined;
      case 'text':
        return next(kind, reading.quoted) ?? (options.freeText ? reading.text : undefined);
    }
  };
  return (
    named() ??
    property.default ??
    (kind === 'zone' && options.defaultZone ? 'UTC' : undefined) ??
    // A switch the message does not mention stays off.
    (kind === 'boolean' ? false : undefined)
  );
}
