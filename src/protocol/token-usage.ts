/** Token counts of one or more model steps. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}
