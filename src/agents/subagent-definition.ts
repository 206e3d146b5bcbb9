import type { ToolResultPart } from 'ai';
import type { AgentBudget } from '../protocol/usage';
import type { ModelCallSettings } from './agent-definition';

/** What a child run hands back to `toModelOutput`. */
export interface SubagentResult {
  text: string;
  stopReason: string;
  steps: number;
  workflowId: string;
}

/**
 * A subagent entry on a parent agent: the model sees it as one tool with input `{ task }`; a
 * call runs the `agent` as a child workflow with its own context, and only its final text (or
 * what `toModelOutput` makes of it) returns to the parent.
 */
export interface SubagentDefinition {
  /** Registry name of the agent the child runs. */
  agent: string;
  /** What the tool is for, as the parent's model reads it. */
  description: string;
  /** Instructions added to the child's own (its role for this parent). */
  persona?: string;
  /**
   * Names of the child's tools it may use; the others are hidden and refused.
   * @default all
   */
  toolFilter?: string[];
  /** Model route of the child, instead of its own (e.g. `'anthropic:claude-haiku-4-5'`). */
  model?: string;
  /** Call settings of the child, over its own (`temperature`, `maxOutputTokens`, `providerOptions`, ...). */
  modelSettings?: ModelCallSettings;
  /**
   * Deepest level this delegation may reach (the root is 0).
   * @default the worker's `maxDepth` (1); 0 forbids it
   */
  maxDepth?: number;
  /**
   * This subagent's share of its parent's budget: limits of its own, or a fraction (0.25) of each of
   * the parent's limits. The child's tree stops at its share; the parent's budget still applies.
   */
  budget?: AgentBudget | number;
  /**
   * `fresh` (default): the child sees only the task. `fork`: it also sees this conversation before the current turn.
   * @default `'fresh'`
   */
  context?: 'fresh' | 'fork';
  /**
   * Offer `run_in_background`; when false, a forced background call is refused.
   * @default true
   */
  enableRunInBackground?: boolean;
  /**
   * `one-shot` (default): waits, or with `run_in_background: true` starts a job collected with
   * `job_output`. `continuable`: starts a long-lived child in the background by default; it takes
   * more work through `send_message` and reports each finished activation to the parent.
   * @default `'one-shot'`
   */
  backgroundMode?: 'one-shot' | 'continuable';
  /**
   * An idle continuable child closes after this long without messages (Temporal duration).
   * @default `'1 hour'`
   */
  idleTimeout?: string;
  /** Lets the model pick the child's model among these routes (`provider:model`), listed by `list_subagent_models`. */
  modelSelection?: { routes: string[] };
  /** Maps the child's result to what the parent's model sees; runs in an activity. */
  toModelOutput?: (
    result: SubagentResult,
  ) => string | ToolResultPart['output'] | Promise<string | ToolResultPart['output']>;
}

/** The serializable part of a subagent entry, carried in the parent's spec. */
export interface SubagentSpec {
  agent: string;
  context: 'fresh' | 'fork';
  maxDepth: number;
  persona?: string;
  toolFilter?: string[];
  modelRoute?: string;
  modelSettings?: ModelCallSettings;
  /** True when the entry maps the child's result in an activity. */
  mapsOutput: boolean;
  /** Absent for an entry that runs in the foreground only. */
  background?: { enabled: boolean; mode: 'one-shot' | 'continuable'; idleTimeout: string };
  /** Routes the model may pick for the child. */
  modelRoutes?: string[];
}

/** The system prompt section a continuable subagent adds to its parent's instructions. */
export function continuableGuidance(toolName: string): string {
  return (
    `Use ${toolName} in the background by default. Start independent delegations together in one assistant message ` +
    'and continue useful work while they run. Set `run_in_background: false` only when your next action depends on ' +
    "that subagent's result. When a background run settles, the runtime sends you a notice containing its outcome and any final assistant message."
  );
}

/** Tool description the parent's model reads: the entry's own, plus what the child sees. */
export function subagentToolDescription(definition: SubagentDefinition): string {
  const sees =
    definition.context === 'fork'
      ? 'The subagent sees this conversation up to your current turn; it does not see the current in-flight turn, so state the task fully.'
      : 'The subagent does not see this conversation: put everything it needs in the task.';
  const lines = [`${definition.description}`, '', `${sees} Only its final answer comes back to you.`];
  const background = definition.enableRunInBackground ?? true;
  if (background && definition.backgroundMode === 'continuable') {
    lines.push(
      'run_in_background defaults to true: the call returns `started subagent <id>` at once; each time the subagent settles you get a notice with its outcome. Send it more work with send_message. Set run_in_background: false to wait for its result.',
    );
  } else if (background) {
    lines.push(
      'run_in_background defaults to false. With true, the call returns `started background subagent job <id>` at once; collect the result with job_output or stop it with job_kill.',
    );
  }
  if (definition.modelSelection) {
    lines.push(
      'Optional provider, model and reasoning_effort choose the subagent model among the allowed routes (see list_subagent_models); without them it uses your model.',
    );
  }
  return lines.join('\n');
}
