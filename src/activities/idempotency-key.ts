import type { ToolExecutionOptions } from 'ai';

/** What Cadre passes a tool's `execute`: the AI SDK's options plus a key that is the same on every retry of the call. */
export type DurableToolExecutionOptions = ToolExecutionOptions<unknown> & {
  /** `<workflow id>:<tool call id>`: stable across retries, crashes and continue-as-new; unique per call. */
  idempotencyKey: string;
};

/** The idempotency key of one tool call of one run. */
export function toolIdempotencyKey(workflowId: string, toolCallId: string): string {
  return `${workflowId}:${toolCallId}`;
}

/**
 * The idempotency key of the call a tool's `execute` is running: pass it to the payment, email or
 * ticket API so a retried call (tools are at-least-once) has no second effect. Outside Cadre (the
 * AI SDK alone) it is the tool call id.
 * @example
 * execute: async ({ amount }, options) => payments.charge({ amount, idempotencyKey: idempotencyKeyOf(options) })
 */
export function idempotencyKeyOf(options: Pick<ToolExecutionOptions<unknown>, 'toolCallId'>): string {
  const key = (options as Partial<DurableToolExecutionOptions>).idempotencyKey;
  return typeof key === 'string' ? key : options.toolCallId;
}
