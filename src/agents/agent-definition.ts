import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { LanguageModel, ToolSet } from 'ai';

/** Retry settings for the model-step activity (Temporal durations such as `'1s'` or `'30 minutes'`). */
export interface ModelRetrySettings {
  initialInterval?: string;
  backoffCoefficient?: number;
  maximumInterval?: string;
  maximumAttempts?: number;
}

/** Settings passed to the provider on every model step. */
export interface ModelCallSettings {
  temperature?: number;
  maxOutputTokens?: number;
  providerOptions?: SharedV4ProviderOptions;
}

/**
 * What a user writes to define an agent; shaped like the AI SDK's `ToolLoopAgent` settings.
 * Lives on the worker only: tools and models are code, never sent to the workflow.
 */
export interface AgentDefinition<TOOLS extends ToolSet = ToolSet> {
  /** Registry name; also the prefix of the agent's workflow ids. Letters, digits, `-` and `_`. */
  name: string;
  description?: string;
  /** A route such as `openai:gpt-5-mini` resolved by the worker's model registry, or a model instance. */
  model?: string | LanguageModel;
  instructions?: string;
  /** Tools made with the AI SDK's `tool()`; each call runs as its own activity. */
  tools?: TOOLS;
  /** Most model steps in one activation before it stops with `max-steps`. Default 20. */
  maxSteps?: number;
  /** Tool outputs longer than this many characters are cut for the model, with a visible marker. Default 16000. */
  maxToolOutputChars?: number;
  modelSettings?: ModelCallSettings;
  modelRetry?: ModelRetrySettings;
  /** Longest a single model step may take (Temporal duration). Default `'10 minutes'`. */
  modelStepTimeout?: string;
  /** Longest a single tool call may take (Temporal duration). Default `'10 minutes'`. */
  toolTimeout?: string;
}

/**
 * The serializable part of an agent that the workflow receives once per run and carries
 * through continue-as-new, so a deploy does not change a running agent's shape mid-flight.
 */
export interface AgentSpec {
  name: string;
  modelRoute: string;
  toolNames: string[];
  maxSteps: number;
  modelStepTimeout: string;
  toolTimeout: string;
  modelRetry: Required<ModelRetrySettings>;
}
