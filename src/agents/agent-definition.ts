import type { OnFailure, OnFailureSpec } from './on-failure-setting';
import type { LocalPlacement } from '../protocol/step-placement';
import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { AgentBudget, Pricing } from '../protocol/usage';
import type { AgentTimeoutSetting, TotalTimeoutSpec } from './timeout-settings';
import type {
  FlexibleSchema,
  GenerateTextOnFinishCallback,
  GenerateTextOnStepFinishCallback,
  Instructions,
  LanguageModel,
  LanguageModelCallOptions,
  OutputInterface,
  PrepareStepFunction,
  StopCondition,
  ToolApprovalConfiguration,
  ToolChoice,
  ToolSet,
} from 'ai';
import type { SubagentDefinition, SubagentSpec } from './subagent-definition';
import type { ContextWindowSettings } from './context-window-settings';
import type { AgentMemoryOptions } from '../memory/memory-options';
import type { McpServerDefinition } from './mcp-servers';
import type { WhileRunning } from '../protocol/while-running';

/** Retry settings for the model-step activity (Temporal durations such as `'1s'` or `'30 minutes'`). */
export interface ModelRetrySettings {
  /**
   * Wait before the first retry.
   * @default `'1 second'`
   */
  initialInterval?: string;
  /**
   * Each wait is the previous one times this.
   * @default 2
   */
  backoffCoefficient?: number;
  /**
   * Longest wait between two attempts.
   * @default `'2 minutes'`
   */
  maximumInterval?: string;
  /**
   * Attempts in all, the first included (429, 5xx and network errors are retried; other 4xx fail at once).
   * @default 8
   */
  maximumAttempts?: number;
}

/**
 * How one tool's activity runs (Temporal durations such as `'30 seconds'`). Tools are
 * at-least-once by default: a retry after a lost worker runs `execute` again with the same
 * idempotency key. `atMostOnce` makes one at-most-once.
 */
export interface ToolExecutionSettings {
  /**
   * Retries after a lost worker or a timeout (a thrown error is a result, never retried).
   * @default 3 attempts, 1 s then doubling
   */
  retry?: ModelRetrySettings;
  /**
   * Longest one attempt may take.
   * @default the agent's `toolTimeout`
   */
  timeout?: string;
  /**
   * A worker that stops heartbeating this long is taken for dead and the call retried. For a tool
   * run as an activity, and for a local one after its hand-off.
   * @default `'4 seconds'`
   */
  heartbeatTimeout?: string;
  /**
   * Runs the tool as its own Temporal activity on the agent's task queue, heartbeating, instead of
   * a local activity in the workflow's worker. For a tool that nearly always takes longer than the
   * hand-off window (a build, a download): it skips the local attempt, and a crash is found within
   * `heartbeatTimeout` rather than the workflow task's timeout.
   * @default false
   */
  longRunning?: boolean;
  /**
   * The tool's `execute` starts at most once per call, for effects no idempotency key can guard (a
   * payment through a provider without one, an email, a shell command). Cadre records that the call
   * started before it calls `execute`; a call whose worker was lost, or that timed out, is not run
   * again: the model gets an error result saying the call was interrupted and its effect is
   * unknown.
   * @default false (at least once)
   */
  atMostOnce?: boolean;
}

/**
 * Settings passed to the provider on every model step: the AI SDK's call settings (`temperature`,
 * `maxOutputTokens`, `topP`, `seed`, ...) and `providerOptions`. JSON only: a parent records them in history.
 */
export interface ModelCallSettings extends LanguageModelCallOptions {
  /** Options for the provider by provider name (`{ openai: { reasoningEffort: 'low' } }`), as the AI SDK takes them. */
  providerOptions?: SharedV4ProviderOptions;
}

/** Names of the call settings an agent may also set at its top level, as `ToolLoopAgent` takes them. */
export const modelCallSettingNames = [
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'stopSequences',
  'seed',
  'reasoning',
  'providerOptions',
] as const satisfies ReadonlyArray<keyof ModelCallSettings>;

/** Per-request data that policies and `prepareCall` see (a user's role, a tenant); JSON only, it is recorded in history. */
export type RuntimeContext = Record<string, unknown>;

/**
 * The settings `prepareCall` receives and may replace for one run, as `ToolLoopAgent`'s does. It runs
 * in activities; the workflow records the model route, tool names and step cap it chose in the run's spec.
 */
export interface AgentCallSettings<TOOLS extends ToolSet = ToolSet> extends ModelCallSettings {
  /** A route of the worker's model registry (recorded), or a model instance (used by each step as returned). */
  model?: string | LanguageModel;
  /** A subset of the agent's tools or new tool objects under its tool names; each tool call runs `prepareCall` again to find its tool. */
  tools?: Partial<TOOLS>;
  /** Only these tools (and subagents) are offered to the model in this run; the step cap follows from it (recorded). */
  activeTools?: ReadonlyArray<keyof TOOLS & string>;
  /** When the run's activations stop after a step with tool calls, as the agent's `stopWhen`. */
  stopWhen?: StopCondition<TOOLS, RuntimeContext> | Array<StopCondition<TOOLS, RuntimeContext>>;
  /** The AI SDK's tool choice for this run's steps. */
  toolChoice?: ToolChoice<TOOLS>;
  /** The run's instructions: a string, or system messages. */
  instructions?: Instructions;
  /** Which of this run's tool calls wait for a person, as the agent's `toolApproval`. */
  toolApproval?: ToolApprovalConfiguration<TOOLS, RuntimeContext>;
  /** The run's call settings, grouped; where both set one, `modelSettings` wins. */
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
export interface AgentDefinition<
  TOOLS extends ToolSet = ToolSet,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- call options are whatever the agent's schema says
  CALL_OPTIONS = any,
  OUTPUT extends OutputInterface = OutputInterface,
> extends ModelCallSettings {
  /** Registry name; also the prefix of the agent's workflow ids. Letters, digits, `-` and `_`. */
  name: string;
  /** What the agent does, in a sentence, for people reading its definition; the model never sees it. */
  description?: string;
  /** A route such as `openai:gpt-5-mini` resolved by the worker's model registry, or a model instance. */
  model?: string | LanguageModel;
  /** A string, or system messages (for provider options such as caching), as `ToolLoopAgent` takes them. */
  instructions?: Instructions;
  /**
   * When the activation stops after a step with tool calls (the AI SDK's `stepCountIs`, `hasToolCall`
   * or any condition; an array stops when one is met). Evaluated in the model-step activity, which
   * records the decision in the step's result, so the workflow runs no user code and replays alike.
   */
  stopWhen?: StopCondition<NoInfer<TOOLS>, RuntimeContext> | Array<StopCondition<NoInfer<TOOLS>, RuntimeContext>>;
  /**
   * Per-step settings (`model`, `activeTools`, `toolChoice`, `instructions`/`system`, `messages`), run
   * in the model-step activity before the model call; a retried step reuses the recorded response.
   */
  prepareStep?: PrepareStepFunction<NoInfer<TOOLS>, RuntimeContext>;
  /** Only these tools (and subagents) are offered to the model; the others stay defined. */
  activeTools?: ReadonlyArray<keyof NoInfer<TOOLS> & string>;
  /**
   * The AI SDK's tool choice: `'auto'` (default), `'none'`, `'required'` or `{ type: 'tool', toolName }`.
   * @default `'auto'`
   */
  toolChoice?: ToolChoice<NoInfer<TOOLS>>;
  /** Structured output (`Output.object({ schema })` and friends): the run result carries the parsed `output`. */
  output?: OUTPUT;
  /**
   * Called in the model-step activity once the step's response is judged, before its tools run
   * (`toolResults` is empty). At least once: a worker lost after the call and before the step is recorded calls it again.
   */
  onStepFinish?: GenerateTextOnStepFinishCallback<NoInfer<TOOLS>, RuntimeContext>;
  /**
   * Called in the model-step activity of the step that ends an activation (a final answer, `stopWhen`,
   * or the step limit), with every step of it. At least once, like `onStepFinish`.
   */
  onFinish?: GenerateTextOnFinishCallback<NoInfer<TOOLS>, RuntimeContext>;
  /**
   * Context budget: when a step's prompt would pass `maxTokens` (estimated), older messages are
   * summarised (a `compactContext` activity) or dropped from the model's view; the store keeps them all.
   */
  contextWindow?: ContextWindowSettings;
  /** Tools made with the AI SDK's `tool()`; each call runs as its own activity. */
  tools?: TOOLS;
  /**
   * MCP servers by name, whose tools join `tools`: discovered by the worker in the model-step
   * activity, each call a tool activity. A tool named like another keeps the name `<server>_<tool>`.
   */
  mcpServers?: Record<string, McpServerDefinition>;
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
  /**
   * Derives per-request settings from the call options, as `ToolLoopAgent`'s: `model`, `tools`,
   * `activeTools`, `stopWhen`, `toolChoice`, `instructions`, `toolApproval` and call settings. Runs in
   * activities (the run's description, each model step, each tool call): answer alike for the same options.
   */
  prepareCall?: (
    args: PrepareCallArgs<TOOLS, CALL_OPTIONS>,
  ) => AgentCallSettings<TOOLS> | Promise<AgentCallSettings<TOOLS>>;
  /**
   * How long a user-approval may wait before it counts as a denial (Temporal duration, e.g.
   * `'24h'`).
   * @default forever
   */
  approvalTimeout?: string;
  /**
   * What happens when a model step or a tool call fails through its retries, or with an error no
   * retry fixes (HTTP 401, 403): `fail` (default) fails the run (a tool's failure is an error result
   * the model reads); `wait` holds the run in `needs-attention` until a person retries, skips (a
   * tool call) or fails it (`handle.retry()`, `cadre retry`). See docs/agents.md.
   * @default `'fail'`
   */
  onFailure?: OnFailure;
  /**
   * With `onFailure: 'wait'`: longest a failure waits for a decision (Temporal duration); then the
   * run fails with the original error.
   * @default forever
   */
  attentionTimeout?: string;
  /**
   * Tool outputs longer than this many characters are cut for the model, with a visible marker.
   * @default 16000
   */
  maxToolOutputChars?: number;
  /**
   * Largest tool output in bytes, for every kind (text, JSON, content parts, media). Text is cut
   * with a marker, a media part that does not fit is replaced by a marker, and an output that is
   * only such binary data becomes an error result naming this limit.
   * @default 1,048,576 (1 MiB)
   */
  maxToolOutputBytes?: number;
  /** The same settings as the top-level ones, grouped; where both set one, `modelSettings` wins. */
  modelSettings?: ModelCallSettings;
  /**
   * Stream each model step: the text shows in `handle.stream()` as it is generated. Set false for
   * models that only implement `doGenerate`.
   * @default true
   */
  streaming?: boolean;
  /** Retries of a model step that failed with a provider error worth retrying (429, 5xx, network). */
  modelRetry?: ModelRetrySettings;
  /**
   * Longest a single model step may take (Temporal duration).
   * @default `'10 minutes'`
   */
  modelStepTimeout?: string;
  /**
   * Longest a single tool call may take (Temporal duration).
   * @default `'10 minutes'`
   */
  toolTimeout?: string;
  /** Per tool: its retry policy, timeout and heartbeat timeout, over the defaults. */
  toolOptions?: Partial<Record<keyof TOOLS & string, ToolExecutionSettings>>;
  /** Subagents by tool name: each call runs another agent as a child workflow. */
  subagents?: Record<string, SubagentDefinition>;
  /**
   * Limits on what this agent's whole tree may spend (it and every subagent below it), checked
   * against the store's usage records before each model call; see docs/usage-and-budgets.md.
   */
  budget?: AgentBudget;
  /** Prices per model route, for this agent's `maxCostUsd` (and its subagents', unless they set their own). */
  pricing?: Pricing;
  /** Deadlines: `total` per activation, `step` per model step, `firstChunk` per streaming attempt (see `AgentTimeouts`). */
  timeout?: AgentTimeoutSetting;
  /**
   * How a task-mode run ends while background jobs or continuable subagents still work: `wait`
   * (default) for them to settle (their notices may start more steps), or `cancel` them.
   * @default `'wait'`
   */
  backgroundOnFinish?: 'wait' | 'cancel';
  /**
   * What a session does with a message sent while a turn runs: `steer` (default) joins the turn at
   * its next model step, `queue` waits for the next turn, `interrupt` stops the turn and starts
   * a new one, `reject` makes `send()` fail with `MessageRejected`. Task runs always steer.
   * @default `'steer'`
   */
  whileRunning?: WhileRunning;
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
  /** Present when the agent's `onFailure` is `wait`: failures wait for a person, up to `timeout`. */
  onFailure?: OnFailureSpec;
  /** Per-tool activity settings; absent when the agent sets none. */
  toolOptions?: Record<string, ToolExecutionSettings>;
  /** The agent's subagents by tool name; absent when it has none. */
  subagents?: Record<string, SubagentSpec>;
  backgroundOnFinish?: 'wait' | 'cancel';
  /** Absent for the default, `steer`. */
  whileRunning?: WhileRunning;
  /** True when the serving worker found Cadre's search attributes registered in the namespace. */
  searchAttributes?: boolean;
  /** The describing worker's fingerprint of the agent's definition (see `agentFingerprint`). */
  fingerprint?: string;
  /** `timeout.total`: absent when the agent sets none, so runs without it get no deadline timer. */
  totalTimeout?: TotalTimeoutSpec;
  /**
   * Present when the worker that described the run serves the agent with `localActivities`: model
   * steps and tools then run as local activities on the workflow's worker, for at most
   * `handOffAfterMs` of a workflow task. Absent in a spec from the agent's queue (a fleet split by
   * agent), and in runs recorded before local activities.
   */
  localActivities?: LocalPlacement;
  /**
   * True when the worker that described the run serves the agent: model steps and tools that run
   * as activities go to the workflow's own task queue, where a server with eager dispatch hands
   * them to that worker in the workflow task's completion. Absent in a spec from the agent's queue
   * (a fleet split by agent), and in runs recorded before it: their calls go to the agent's queue.
   */
  onWorkflowQueue?: true;
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
  AgentDefinition<any, any, any>,
  | 'toolApproval'
  | 'prepareCall'
  | 'callOptionsSchema'
  | 'stopWhen'
  | 'prepareStep'
  | 'onStepFinish'
  | 'onFinish'
  | 'activeTools'
  | 'toolChoice'
> & {
  toolApproval?: unknown;
  prepareCall?: unknown;
  callOptionsSchema?: unknown;
  stopWhen?: unknown;
  prepareStep?: unknown;
  onStepFinish?: unknown;
  onFinish?: unknown;
  activeTools?: readonly string[];
  toolChoice?: unknown;
};

/** The call options type of an agent definition (`never` without `callOptionsSchema`, `unknown` for anything else). */
export type InferAgentCallOptions<AGENT> =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- only the call options are inferred
  AGENT extends AgentDefinition<any, infer CALL_OPTIONS, any> ? CALL_OPTIONS : unknown;

/** The parsed structured output type of an agent definition (`unknown` without `output`). */
export type InferAgentOutput<AGENT> = AGENT extends { output?: infer OUTPUT }
  ? NonNullable<OUTPUT> extends OutputInterface<infer COMPLETE, unknown, unknown>
    ? COMPLETE
    : unknown
  : unknown;
