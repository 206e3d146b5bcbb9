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
 * signatures enter workflow history, and an approval must present one that verifies.
 */
export class ApprovalSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'utf8');
    if (this.key.length < minimumSecretBytes) {
      throw new ConfigurationError(
        `CADRE_APPROVAL_SECRET is ${this.key.length} bytes; use at least ${minimumSecretBytes} (for example \`openssl rand -base64 32\`).`,
      );
    }
  }

  /** The signature of a request, base64url. */
  sign(fields: SignedApprovalFields): string {
    return createHmac('sha256', this.key).update(signedText(fields)).digest('base64url');
  }

  /** True when `signature` is the signature of exactly these fields. */
  verify(fields: SignedApprovalFields, signature: string): boolean {
    const expected = Buffer.from(this.sign(fields), 'base64url');
    const presented = Buffer.from(signature, 'base64url');
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  }
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
