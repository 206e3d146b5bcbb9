import { isGrpcServiceError, type ConnectionLike } from '@temporalio/client';
import type { SearchAttributeType } from '@temporalio/common';
import { CadreError, ConfigurationError } from '../errors';
import { cadreSearchAttributes, tenantKey } from '../protocol/search-attributes';

/** gRPC status codes (kept local: @grpc/grpc-js is not a direct dependency). */
const GRPC_ALREADY_EXISTS = 6;
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;
/** The longest one operator call may take before it is tried again. */
const CALL_TIMEOUT_MS = 5_000;
/** How long registering, or listing, waits for the server by default. */
const DEFAULT_WAIT_MS = 30_000;

/** Values of `temporal.api.enums.v1.IndexedValueType`, the wire form of each search attribute type. */
const indexedValueTypes: Record<SearchAttributeType, number> = {
  TEXT: 1,
  KEYWORD: 2,
  INT: 3,
  DOUBLE: 4,
  BOOL: 5,
  DATETIME: 6,
  KEYWORD_LIST: 7,
};

/** A search attribute to register: the shape of `defineSearchAttributeKey()`'s result. */
export interface SearchAttributeDefinition {
  /** The attribute's name, as queries use it: `CadreAgent`. */
  name: string;
  /** Its Temporal type: `KEYWORD`, `INT`, `BOOL` and so on. */
  type: SearchAttributeType;
}

/** Options of {@link registerSearchAttributes}. */
export interface RegisterSearchAttributesOptions {
  /** Attributes to register; Cadre's own by default. */
  attributes?: readonly SearchAttributeDefinition[];
  /**
   * How long to wait for the server to answer and list every attribute; no call waits past it.
   * @default 30000
   */
  timeoutMs?: number;
}

/** Normalizes a listed type, which protobuf may hand over as a number or as its enum name. */
function indexedValueTypeOf(listed: unknown): number | undefined {
  if (typeof listed === 'number') return listed;
  if (typeof listed === 'string') {
    const name = listed.replace(/^INDEXED_VALUE_TYPE_/, '') as SearchAttributeType;
    return indexedValueTypes[name];
  }
  return undefined;
}

function typeName(indexedValueType: number | undefined): string {
  const entry = Object.entries(indexedValueTypes).find(([, value]) => value === indexedValueType);
  return entry ? entry[0] : `unknown (${String(indexedValueType)})`;
}

/**
 * The custom search attributes of `namespace` as name → IndexedValueType. `deadline` (epoch ms,
 * default 30 s from now) bounds the call, which a server that stops answering would otherwise
 * leave waiting forever.
 */
export async function listCustomSearchAttributes(
  connection: ConnectionLike,
  namespace: string,
  deadline = Date.now() + DEFAULT_WAIT_MS,
): Promise<Map<string, number | undefined>> {
  const response = await operatorCall(connection, deadline, 'list', () =>
    connection.operatorService.listSearchAttributes({ namespace }),
  );
  const listed = new Map<string, number | undefined>();
  for (const [name, type] of Object.entries(response.customAttributes ?? {}))
    listed.set(name, indexedValueTypeOf(type));
  return listed;
}

/**
 * `call` with a deadline of at most 5 s, tried again while a server still starting up times it out
 * or is unavailable, until `deadline`; then a `TemporalUnreachable` error saying what got no answer.
 */
async function operatorCall<T>(
  connection: ConnectionLike,
  deadline: number,
  what: 'list' | 'add',
  call: () => Promise<T>,
): Promise<T> {
  for (;;) {
    try {
      return await connection.withDeadline(Math.min(deadline, Date.now() + CALL_TIMEOUT_MS), call);
    } catch (error) {
      const code = isGrpcServiceError(error) ? error.code : undefined;
      if (code !== GRPC_DEADLINE_EXCEEDED && code !== GRPC_UNAVAILABLE) throw error;
      if (Date.now() >= deadline) {
        throw new CadreError(
          'TemporalUnreachable',
          `The Temporal server did not answer when asked to ${what} search attributes (${(error as Error).message}). ` +
            'Check that it is up and not overloaded (its logs say why), then start this again.',
        );
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Whether `namespace` has all of Cadre's search attributes, so runs can set them at start. False
 * also for a server without the operator service (the time-skipping server), without the
 * permission, or not answering within `timeoutMs`.
 */
export async function hasCadreSearchAttributes(
  connection: ConnectionLike,
  namespace: string,
  timeoutMs = 10_000,
): Promise<boolean> {
  try {
    const listed = await listCustomSearchAttributes(connection, namespace, Date.now() + timeoutMs);
    // `CadreTenant` is set only on runs started with a tenant: a namespace set up before it still publishes statuses.
    return cadreSearchAttributes.every((key) => key === tenantKey || listed.has(key.name));
  } catch {
    return false;
  }
}

function isAlreadyExists(error: unknown): boolean {
  if (isGrpcServiceError(error) && error.code === GRPC_ALREADY_EXISTS) return true;
  return error instanceof Error && /already exists/i.test(error.message);
}

/**
 * Registers Cadre's search attributes (agent, depth, root id, status, pending approvals) in `namespace`
 * and waits until the server lists them all. Idempotent; throws a ConfigurationError when a name is
 * already taken with another type.
 */
export async function registerSearchAttributes(
  connection: ConnectionLike,
  namespace: string,
  options: RegisterSearchAttributesOptions = {},
): Promise<void> {
  const attributes: readonly SearchAttributeDefinition[] = options.attributes ?? cadreSearchAttributes;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
  const existing = await listCustomSearchAttributes(connection, namespace, deadline);
  const conflicts = attributes.filter(
    (key) => existing.has(key.name) && existing.get(key.name) !== indexedValueTypes[key.type],
  );
  if (conflicts.length > 0) {
    const described = conflicts.map(
      (key) => `${key.name} is ${typeName(existing.get(key.name))}, Cadre needs ${key.type}`,
    );
    throw new ConfigurationError(
      `Search attributes of namespace '${namespace}' have the wrong type: ${described.join('; ')}. ` +
        'Remove them (`temporal operator search-attribute remove --name <name>`) or use another namespace.',
    );
  }
  const missing = attributes.filter((key) => !existing.has(key.name));
  if (missing.length === 0) return;
  const searchAttributes = Object.fromEntries(missing.map((key) => [key.name, indexedValueTypes[key.type]]));
  try {
    await operatorCall(connection, deadline, 'add', () =>
      connection.operatorService.addSearchAttributes({ namespace, searchAttributes }),
    );
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  // A newly added attribute shows up in the listing (and becomes usable) only after the server refreshes.
  for (;;) {
    const listed = await listCustomSearchAttributes(connection, namespace, deadline);
    const stillMissing = missing.filter((key) => !listed.has(key.name));
    if (stillMissing.length === 0) return;
    if (Date.now() > deadline) {
      throw new ConfigurationError(
        `Search attributes ${stillMissing.map((key) => key.name).join(', ')} were added to namespace '${namespace}' ` +
          'but the server still does not list them. Check the server logs, or create them with ' +
          '`temporal operator search-attribute create --name <name> --type <type>`.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
