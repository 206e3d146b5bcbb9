/** A policy's answer, normalized: `undefined` and `'not-applicable'` both mean run without approval metadata. */
export interface ApprovalVerdict {
  type: 'not-applicable' | 'approved' | 'denied' | 'user-approval';
  reason?: string;
}

/** A call's approval as the model step decided it; `approvalId` is set for every status but `not-applicable`. */
export interface ToolCallApproval extends ApprovalVerdict {
  approvalId?: string;
  /** HMAC signature of a user-approval request, when the worker has an approval secret. */
  signature?: string;
}

/** A valid tool call the workflow must run. */
export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** How the call was judged; absent means `not-applicable`. */
  approval?: ToolCallApproval;
  /** The tool has no `execute` (a client-side tool): the workflow waits for its result from `submitToolResult`. */
  clientSide?: true;
}

/** A stored tool output as the workflow records it: kind, size and a preview for Temporal UI. */
export interface StoredOutputSummary {
  outputType: string;
  bytes: number;
  preview: string;
  /** Where the whole output is, so a codec server with the store can show it: the conversation and record key. */
  conversationId?: string;
  key?: string;
}
