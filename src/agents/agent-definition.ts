import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { FlexibleSchema, LanguageModel, ToolApprovalConfiguration, ToolSet } from 'ai';
import type { SubagentDefinition, SubagentSpec } from './subagent-definition';
import type { AgentMemoryOptions } from '../memory/memory-options';

/** Retry settings for the model-step activity (Temporal durations such as `'1s'` or `'30 minutes'`). */
export interface ModelRetrySettings {
  initialInterval?: string;
  backoffCoefficient?: number;
  maximumInterval?: string;
  maximumAttempts?: number;
}

/**
 * How one tool's activity runs (Temporal durations such as `'30 seconds'`). Tools are
 * at-least-once: a retry after a lost worker runs `execute` again with the same idempotency key.
 */
export interface ToolExecutionSettings {
  /** Retries after a lost worker or a timeout (a thrown error is a result, never retried). Default 3 attempts, 1 s then doubling. */
  retry?: ModelRetrySettings;
  /** Longest one attempt may take. Default: the agent's `toolTimeout`. */
  timeout?: string;
  /** A worker that stops heartbeating this long is taken for dead and the call retried. Default `'4 seconds'`. */
  heartbeatTimeout?: string;
}

/** Settings passed to the provider on every model step. */
export interface ModelCallSettings {
  temperature?: number;
  maxOutputTokens?: number;
  providerOptions?: SharedV4ProviderOptions;
}

/** Per-request data that policies and `prepareCall` see (a user's role, a tenant); JSON only, it is recorded in history. */
export type RuntimeContext = Record<string, unknown>;

/** The settings `prepareCall` may override for one run. */
export interface AgentCallSettings<TOOLS extends ToolSet = ToolSet> {
  instructions?: string;
  toolApproval?: ToolApprovalConfiguration<TOOLS, RuntimeContext>;
  modelSettings?: ModelCallSettings;
}

/** Arguments of `prepareCall`: the agent's own settings plus the run's validated call options and runtime context. */
export type PrepareCallArgs<TOOLS extends ToolSet, CALL_OPTIONS> = AgentCallSettings<TOOLS> & {
  options: CALL_OPTIONS;
  runtimeContext: RuntimeContext;
};

/**
 * What a user writes to define an agent; shaped like the AI SDK's `ToolLoopAgent` settings.
 * Lives on the worker only: tools and models are code, never sent to the workflow.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- call options are whatever the agent's schema says
export interface AgentDefinition<TOOLS extends ToolSet = ToolSet, CALL_OPTIONS = any> {
  /** Registry name; also the prefix of the agent's workflow ids. Letters, digits, `-` and `_`. */
  name: string;
  description?: string;
  /** A route such as `openai:gpt-5-mini` resolved by the worker's model registry, or a model instance. */
  model?: string | LanguageModel;
  instructions?: string;
  /** Tools made with the AI SDK's `tool()`; each call runs as its own activity. */
  tools?: TOOLS;
  /**
   * Gives the agent a `memory` tool over `/memories`, kept in the conversation store per scope
   * (Anthropic's `memory_20250818` on Anthropic models, the same commands as a function tool on
   * others). Changes apply exactly once per tool call, even when the activity is retried.
   */
  memory?: AgentMemoryOptions;
  /**
   * The AI SDK's approval policy: a per-tool map of statuses or input functions, or one global
   * function. Evaluated in activities, never in the workflow.
   */
  toolApproval?: ToolApprovalConfiguration<TOOLS, RuntimeContext>;
  /** Schema of per-request options (`AgentClient.start(..., { callOptions })`), checked when the run starts. */
  callOptionsSchema?: FlexibleSchema<CALL_OPTIONS>;
  /** Derives per-request settings (for example the approval policy) from the call options. */
  prepareCall?: (
    args: PrepareCallArgs<TOOLS, CALL_OPTIONS>,
  ) => AgentCallSettings<TOOLS> | Promise<AgentCallSettings<TOOLS>>;
  /** How long a user-approval may wait before it counts as a denial (Temporal duration, e.g. `'24h'`). Default: forever. */
  approvalTimeout?: string;
  /** Most model steps in one activation before it stops with `max-steps`. Default 20. */
  maxSteps?: number;
  /** Tool outputs longer than this many characters are cut for the model, with a visible marker. Default 16000. */
  maxToolOutputChars?: number;
  /**
   * Largest tool output in bytes, for every kind (text, JSON, content parts, media). Text is cut with
   * a marker, a media part that does not fit is replaced by a marker, and an output that is only
   * such binary data becomes an error result naming this limit. Default 1,048,576 (1 MiB).
   */
  maxToolOutputBytes?: number;
  modelSettings?: ModelCallSettings;
  /**
   * Stream each model step (default true): the text shows in `handle.stream()` as it is generated.
   * Set false for models that only implement `doGenerate`.
   */
  streaming?: boolean;
  modelRetry?: ModelRetrySettings;
  /** Longest a single model step may take (Temporal duration). Default `'10 minutes'`. */
  modelStepTimeout?: string;
  /** Longest a single tool call may take (Temporal duration). Default `'10 minutes'`. */
  toolTimeout?: string;
  /** Per tool: its retry policy, timeout and heartbeat timeout, over the defaults. */
  toolOptions?: Partial<Record<keyof TOOLS & string, ToolExecutionSettings>>;
  /** Subagents by tool name: each call runs another agent as a child workflow. */
  subagents?: Record<string, SubagentDefinition>;
  /**
   * How a task-mode run ends while background jobs or continuable subagents still work: `wait`
   * (default) for them to settle (their notices may start more steps), or `cancel` them.
   */
  backgroundOnFinish?: 'wait' | 'cancel';
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
  approvalTimeout?: string;
  /** Per-tool activity settings; absent when the agent sets none (and in specs recorded before them). */
  toolOptions?: Record<string, ToolExecutionSettings>;
  /** Absent in specs recorded before subagents existed. */
  subagents?: Record<string, SubagentSpec>;
  backgroundOnFinish?: 'wait' | 'cancel';
  /** True when the serving worker found Cadre's search attributes registered in the namespace. */
  searchAttributes?: boolean;
}

/** Per-run changes a parent makes to a child agent: its persona, tool filter and model. */
export interface AgentOverrides {
  persona?: string;
  toolFilter?: string[];
  modelRoute?: string;
  modelSettings?: ModelCallSettings;
}

/**
 * An agent definition of any tool set, as registries and workers hold them. The policy fields
 * are typed per agent's tools, so here they are opaque; activities read them generically.
 */
export type AnyAgentDefinition = Omit<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each agent's tool set has its own type
  AgentDefinition<any, any>,
  'toolApproval' | 'prepareCall' | 'callOptionsSchema'
> & {
  toolApproval?: unknown;
  prepareCall?: unknown;
  callOptionsSchema?: unknown;
};
