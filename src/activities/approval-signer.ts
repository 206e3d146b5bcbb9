import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigurationError } from '../errors';

/** What a signature binds: change any field and the signature no longer verifies. */
export interface SignedApprovalFields {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  workflowId: string;
}

/** Smallest accepted secret, as the AI SDK recommends (`openssl rand -base64 32`). */
export const minimumSecretBytes = 32;

/**
 * HMAC-SHA256 signatures of approval requests. The secret stays on the workers: only
 * signatures enter workflow history, and an approval must present one that verifies. During a
 * rotation, signatures made with the previous secret still verify; new ones use the current.
 */
export class ApprovalSigner {
  private readonly key: Buffer;
  private readonly previousKey?: Buffer;

  constructor(secret: string, previousSecret?: string) {
    this.key = checkedKey(secret, 'CADRE_APPROVAL_SECRET');
    if (previousSecret !== undefined) this.previousKey = checkedKey(previousSecret, 'CADRE_APPROVAL_SECRET_PREVIOUS');
  }

  /** The signature of a request with the current secret, base64url. */
  sign(fields: SignedApprovalFields): string {
    return hmac(this.key, fields);
  }

  /** True when `signature` is the signature of exactly these fields, with the current or the previous secret. */
  verify(fields: SignedApprovalFields, signature: string): boolean {
    const presented = Buffer.from(signature, 'base64url');
    return [this.key, this.previousKey].some((key) => {
      if (!key) return false;
      const expected = Buffer.from(hmac(key, fields), 'base64url');
      return presented.length === expected.length && timingSafeEqual(presented, expected);
    });
  }
}

/**
 * The worker's signer from its options or environment, or undefined when signing is off. A
 * secret that is set must be usable: empty or short refuses to start, never signing turned off
 * in silence. `false` turns signing off explicitly, whatever the environment says.
 */
export function approvalSignerFrom(
  secret: string | false | undefined,
  previousSecret: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): ApprovalSigner | undefined {
  if (secret === false) return undefined;
  const current = secret ?? environment.CADRE_APPROVAL_SECRET;
  const previous = previousSecret ?? environment.CADRE_APPROVAL_SECRET_PREVIOUS;
  if (current === undefined) {
    if (previous !== undefined) {
      throw new ConfigurationError(
        'CADRE_APPROVAL_SECRET_PREVIOUS is set but CADRE_APPROVAL_SECRET is not. During a rotation set both: ' +
          'the new secret in CADRE_APPROVAL_SECRET, the old one in CADRE_APPROVAL_SECRET_PREVIOUS.',
      );
    }
    return undefined;
  }
  return new ApprovalSigner(current, previous);
}

function checkedKey(secret: string, name: string): Buffer {
  const key = Buffer.from(secret, 'utf8');
  if (key.length === 0) {
    throw new ConfigurationError(
      `${name} is set but empty, which would turn approval signing off. Set it to a secret of at least ` +
        `${minimumSecretBytes} bytes (for example \`openssl rand -base64 32\`), or unset it to run without signed approvals.`,
    );
  }
  if (key.length < minimumSecretBytes) {
    throw new ConfigurationError(
      `${name} is ${key.length} bytes; use at least ${minimumSecretBytes} (for example \`openssl rand -base64 32\`).`,
    );
  }
  return key;
}

function hmac(key: Buffer, fields: SignedApprovalFields): string {
  return createHmac('sha256', key).update(signedText(fields)).digest('base64url');
}

/** Canonical JSON: object keys sorted at every level, so equal inputs hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function signedText(fields: SignedApprovalFields): string {
  const inputHash = createHash('sha256').update(canonicalJson(fields.input)).digest('hex');
  return JSON.stringify([
    'cadre-approval-v1',
    fields.approvalId,
    fields.toolCallId,
    fields.toolName,
    inputHash,
    fields.workflowId,
  ]);
}
