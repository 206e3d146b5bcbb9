/**
 * The error types a run answers with: the `type` of a Temporal application failure (a failed run,
 * a refused update, a failed activity attempt). Any Temporal client, in any language, sees these,
 * so each is a contract: never renamed, never given a new meaning (see docs/errors.md).
 * `retryable` says whether trying the same thing again later may succeed.
 */
export const wireErrorCatalogue = {
  // Setup and input
  ConfigurationError: { retryable: false, meaning: 'A setup or definition problem that must be fixed first.' },
  InvalidCallOptions: { retryable: false, meaning: "Call options failed the agent's callOptionsSchema." },
  InvalidAgentInput: {
    retryable: false,
    meaning: 'The run was started without what it needs (a task without a prompt).',
  },
  NoWorkerForAgent: { retryable: false, meaning: "No worker polled the agent's task queue within a minute." },
  // Runs
  AgentRunFailed: { retryable: false, meaning: 'The run failed for a reason without a type of its own.' },
  ModelStepFailed: { retryable: false, meaning: 'A model step failed through all its attempts, so the run failed.' },
  ModelStepAttemptFailed: { retryable: true, meaning: 'One attempt of a model step failed; Temporal retries it.' },
  ModelFirstChunkTimeout: {
    retryable: true,
    meaning: 'A streaming model call sent nothing within timeout.firstChunk; it retries.',
  },
  NoOutputGenerated: { retryable: false, meaning: "The final text is not the agent's structured output." },
  ContextWindowExceeded: {
    retryable: false,
    meaning: 'No compaction brings the prompt under contextWindow.maxTokens.',
  },
  EmptySummary: { retryable: true, meaning: 'The summary model of a compaction returned no text.' },
  AgentSettingFailed: {
    retryable: true,
    meaning: "One of the agent's functions (prepareStep, stopWhen, a hook) threw.",
  },
  // Messages sent mid-turn
  MessageRejected: {
    retryable: true,
    meaning: "The run is in a turn and its agent's whileRunning is 'reject'.",
  },
  // Moving sessions between builds
  InvalidBuildMove: { retryable: false, meaning: 'A holdForBuildMove request whose holdFor is not a duration.' },
  TaskRunPinned: { retryable: false, meaning: 'A task run is never moved: it finishes on the build it started on.' },
  SessionBusy: {
    retryable: true,
    meaning: 'The session is in the middle of a turn: it can move once the turn has ended.',
  },
  SessionEnding: { retryable: false, meaning: 'The session was asked to end: it closes on its build.' },
  // Model providers and tools
  ProviderUnavailable: { retryable: true, meaning: 'The model provider is unavailable (429, 5xx, network).' },
  ProviderRequestRejected: {
    retryable: false,
    meaning: 'The model provider rejected the request (4xx, invalid request).',
  },
  McpServerUnavailable: { retryable: true, meaning: 'An MCP server could not be reached, listed or called.' },
  // Conversation store
  StoreUnavailable: { retryable: true, meaning: 'The conversation store cannot be reached.' },
  StoreInconsistent: { retryable: false, meaning: "A write would break a conversation's invariants (a gap)." },
  // Approvals
  InvalidApprovalDecision: { retryable: false, meaning: 'A decision without approved: true or false.' },
  UnknownApproval: { retryable: false, meaning: 'No approval request has this id in the run.' },
  ApprovalAlreadyDecided: { retryable: false, meaning: 'The request was decided before.' },
  ApprovalCancelled: {
    retryable: false,
    meaning: 'The request was closed: its wait was interrupted, cancelled or timed out.',
  },
  ApprovalNotPending: { retryable: false, meaning: 'The request is not waiting for a decision.' },
  ApprovalNotVerified: { retryable: false, meaning: 'The signature or the presented input did not verify.' },
  // Failures that wait for a person (onFailure: 'wait')
  InvalidAttentionDecision: {
    retryable: false,
    meaning: 'A decision that is not retry, fail or skip, or a skip of a model step.',
  },
  UnknownAttention: { retryable: false, meaning: 'No failure waits with this id in the run.' },
  AttentionNotWaiting: { retryable: false, meaning: 'The failure was decided before, or its wait was closed.' },
  // Client-side tool results
  InvalidToolResult: { retryable: false, meaning: 'A submission that is not a valid result (errorText not a string).' },
  UnknownToolCall: { retryable: false, meaning: 'No call to a client-side tool has this id in the run.' },
  ToolCallAwaitingApproval: { retryable: true, meaning: 'The call waits for its approval first.' },
  ToolResultAlreadySubmitted: { retryable: false, meaning: 'The call has its result already.' },
  ToolCallClosed: {
    retryable: false,
    meaning: 'The call no longer waits: the turn was interrupted or the run cancelled.',
  },
  InvalidToolOutput: { retryable: false, meaning: "The output failed the tool's outputSchema or toModelOutput." },
  ToolResultNotRecorded: { retryable: true, meaning: 'The result could not be recorded in the store.' },
  // Store encryption at rest
  StoreKeyMissing: { retryable: true, meaning: 'A stored value is encrypted with a key this process does not have.' },
  StoreValueNotEncrypted: { retryable: false, meaning: 'A stored value is in clear where payload keys are set.' },
  StoreDecryptionFailed: { retryable: false, meaning: 'A stored value failed authentication under its key.' },
} as const satisfies Record<string, { retryable: boolean; meaning: string }>;

/**
 * The error types only Cadre's TypeScript library raises, in your process: its client, CLI, chat
 * and codec servers check and refuse these before anything reaches a run (the chat endpoint sends
 * the type in its error body). Matched on as `CadreError.type`, stable as the wire types are.
 */
export const localErrorCatalogue = {
  // Setup and input
  PromptTooLarge: { retryable: false, meaning: 'A prompt or one of its parts is larger than the limits allow.' },
  UnsupportedPrompt: { retryable: false, meaning: "A UIMessage prompt that is not the user's message." },
  UnsupportedPromptPart: {
    retryable: false,
    meaning: 'A prompt part whose data cannot be sent (not base64, bytes or a URL).',
  },
  ServerNotStarted: { retryable: false, meaning: 'The Temporal server Cadre started did not come up.' },
  TemporalUnreachable: { retryable: true, meaning: 'Temporal could not be reached, or refused the credentials.' },
  // Runs
  RunNotRunning: { retryable: false, meaning: 'The run has ended, so it takes no decision or result.' },
  // Forks
  ForkPointNotFound: { retryable: false, meaning: 'A fork point the conversation does not have.' },
  ForkInsideToolCall: {
    retryable: false,
    meaning: 'A fork point inside a tool call that has no result yet.',
  },
  // The CLI
  StoppedWatching: {
    retryable: false,
    meaning: 'The CLI stopped watching (Ctrl-C) while the run waits; the run goes on.',
  },
  // Approvals
  ApprovalNotApplied: {
    retryable: true,
    meaning: 'The decision did not reach the run (a connection or server error).',
  },
  // Tenants
  TenantAtCapacity: {
    retryable: true,
    meaning: 'A new run of a tenant that has tenantLimits.maxActiveRuns runs running already.',
  },
  // Failures that wait for a person (onFailure: 'wait')
  NothingNeedsAttention: { retryable: false, meaning: 'retry(), skip() or failRun() on a tree where nothing waits.' },
  // Client-side tool results
  ToolResultNotApplied: {
    retryable: true,
    meaning: 'The result did not reach the run (a connection or server error).',
  },
  // Payload encryption
  PayloadKeyMissing: { retryable: true, meaning: 'A payload is encrypted with a key this process does not have.' },
  PayloadNotEncrypted: { retryable: false, meaning: 'A payload arrived unencrypted where payload keys are set.' },
  PayloadDecryptionFailed: { retryable: false, meaning: 'A payload failed authentication under its key.' },
} as const satisfies Record<string, { retryable: boolean; meaning: string }>;

/** Every error type of Cadre: the run's (wire) types, then the local ones, in the order docs/errors.md lists them. */
export const errorCatalogue = { ...wireErrorCatalogue, ...localErrorCatalogue };

/** One of Cadre's error types. */
export type CadreErrorType = keyof typeof errorCatalogue;

/** Every error type, in the catalogue's order. */
export const cadreErrorTypes = Object.keys(errorCatalogue) as CadreErrorType[];

/** True when `type` is one of Cadre's error types. */
export function isCadreErrorType(type: unknown): type is CadreErrorType {
  return typeof type === 'string' && Object.hasOwn(errorCatalogue, type);
}

/** True when trying again later may succeed for an error of this type (unknown types: false). */
export function isRetryableErrorType(type: string): boolean {
  return isCadreErrorType(type) && errorCatalogue[type].retryable;
}

/** The error types a model step fails at once on, instead of retrying. */
export const nonRetryableModelErrors: CadreErrorType[] = ['ProviderRequestRejected', 'ConfigurationError'];
