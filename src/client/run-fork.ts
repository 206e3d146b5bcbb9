import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import type { ModelMessage } from 'ai';
import { CadreError } from '../errors';
import { type AgentMode, type AgentWorkflowInput, agentWorkflowType } from '../protocol/definitions';
import { promptText } from '../protocol/prompt-content';
import { agentNameKey, initialSearchAttributes } from '../protocol/search-attributes';
import { runPriorityOf } from '../protocol/run-priority';
import { sharedQueueOf } from '../protocol/task-queues';
import { oneLine } from '../protocol/text-preview';
import { storedMessages } from '../store/stored-messages';
import type { agentWorkflow } from '../workflows/agent-workflow';
import { type ForkAt, resolveForkPoint } from './fork-point';
import { storeLargeParts } from './large-prompt-parts';
import type { LazyStore } from './lazy-store';
import { type AgentPrompt, promptInput } from './prompt-input';

/** Options of `handle.fork`: where to branch off, and what the new run goes on with. */
export interface ForkOptions {
  /** Message index, `{ step }`, or `'before-last-user-message'` (edit-and-resend); see `ForkAt`. */
  at: ForkAt;
  /** The new run's first message after the kept prefix; a task-mode fork needs one. */
  prompt?: AgentPrompt;
  /**
   * Agent of the new run.
   * @default the original's
   */
  agent?: string;
  /**
   * Model route of the new run (as `provider:model`).
   * @default the agent's
   */
  model?: string;
  /**
   * Call options of the new run.
   * @default the original's
   */
  callOptions?: unknown;
  /**
   * The new run's mode: `task` answers `prompt` and ends, `session` waits for messages.
   * @default the original's mode
   */
  mode?: AgentMode;
  /**
   * Workflow id of the new run.
   * @default `<agent>-<random>`
   */
  workflowId?: string;
}

/** Memo key a fork carries (shown in Temporal UI): the run and conversation it branched from, and where. */
export const forkMemoKey = 'cadreForkOf';

/** What the `cadreForkOf` memo holds. */
export interface ForkMemo {
  workflowId: string;
  conversationId: string;
  at: number;
}

/**
 * Starts a run whose conversation is the first messages of `workflowId`'s, by reference in the
 * store (nothing is copied), then `options.prompt`. The original run is not touched.
 */
export async function startFork(
  client: Client,
  workflowId: string,
  lazyStore: LazyStore,
  options: ForkOptions,
): Promise<string> {
  const store = await lazyStore.get();
  const conversationId = await store.findConversation(workflowId);
  if (!conversationId) {
    throw new CadreError(
      'ForkPointNotFound',
      `Cannot fork ${workflowId}: its conversation has no messages in the store yet. Fork it once its first step has run.`,
      { workflowId },
    );
  }
  const messages: ModelMessage[] = [];
  for await (const message of storedMessages(store, conversationId)) messages.push(message);
  const at = resolveForkPoint(messages, options.at);
  const description = await client.workflow.getHandle(workflowId).describe();
  const original = await startInput(client, workflowId);
  const prompt = promptInput(options.prompt, { sizeLimit: false });
  if (prompt.promptContent) prompt.promptContent = await storeLargeParts(prompt.promptContent, lazyStore);
  const agent = options.agent ?? original.agent;
  const mode = options.mode ?? original.mode;
  if (mode === 'task' && options.prompt === undefined) {
    throw new CadreError(
      'InvalidAgentInput',
      `A task-mode fork of ${workflowId} needs a prompt to go on from. Pass { prompt }, or { mode: 'session' } and send messages.`,
      { workflowId, agent },
    );
  }
  const forkId = options.workflowId ?? `${agent}-${randomUUID().slice(0, 8)}`;
  const overrides = options.model ? { ...original.overrides, modelRoute: options.model } : original.overrides;
  const input: AgentWorkflowInput = {
    agent,
    mode,
    ...prompt,
    depth: 0,
    rootWorkflowId: forkId,
    fork: { conversationId, length: at },
    ...(overrides ? { overrides } : {}),
    ...(original.idleTimeout ? { idleTimeout: original.idleTimeout } : {}),
    callOptions: options.callOptions ?? original.callOptions,
    ...(original.runtimeContext ? { runtimeContext: original.runtimeContext } : {}),
    // A fork serves the tenant its run served.
    ...(original.tenant ? { tenant: original.tenant } : {}),
  };
  const text = prompt.promptContent ?? prompt.prompt;
  const memo: ForkMemo = { workflowId, conversationId, at };
  const withAttributes = description.typedSearchAttributes.get(agentNameKey) !== undefined;
  await client.workflow.start<typeof agentWorkflow>(agentWorkflowType, {
    workflowId: forkId,
    // A session's fork goes where the session runs (its high-priority lane too); a task's, to the shared queue.
    taskQueue: mode === 'session' ? description.taskQueue : sharedQueueOf(description.taskQueue),
    args: [input],
    memo: { [forkMemoKey]: memo },
    staticSummary: `${agent} (${mode}), fork of ${workflowId} at message ${at}${text ? `: ${oneLine(promptText(text), 100)}` : ''}`,
    typedSearchAttributes: withAttributes ? initialSearchAttributes(agent, 0, forkId, original.tenant?.id) : undefined,
    priority: runPriorityOf(mode === 'session' ? 'high' : 'normal', original.tenant),
  });
  return forkId;
}

/** The input the run's current execution started with (continue-as-new carries agent, mode and options along). */
async function startInput(client: Client, workflowId: string): Promise<AgentWorkflowInput> {
  const history = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId },
    maximumPageSize: 1,
  });
  const payloads = history.history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
  return await decodeFromPayloadsAtIndex<AgentWorkflowInput>(client.options.loadedDataConverter, 0, payloads);
}
