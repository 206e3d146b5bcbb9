import type { ToolResultPart } from 'ai';
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
  /** Names of the child's tools it may use; the others are hidden and refused. Default: all. */
  toolFilter?: string[];
  /** Model route of the child, instead of its own (e.g. `'anthropic:claude-haiku-4-5'`). */
  model?: string;
  modelSettings?: ModelCallSettings;
  /** Deepest level this delegation may reach (the root is 0). Default: the worker's `maxDepth` (1); 0 forbids it. */
  maxDepth?: number;
  /** `fresh` (default): the child sees only the task. `fork`: it also sees this conversation before the current turn. */
  context?: 'fresh' | 'fork';
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
}

/** Tool description the parent's model reads: the entry's own, plus what the child sees. */
export function subagentToolDescription(definition: SubagentDefinition): string {
  const sees =
    definition.context === 'fork'
      ? 'The subagent sees this conversation up to your current turn; it does not see the current in-flight turn, so state the task fully.'
      : 'The subagent does not see this conversation: put everything it needs in the task.';
  return `${definition.description}\n\n${sees} Only its final answer comes back to you.`;
}
