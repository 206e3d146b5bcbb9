import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { AgentClient } from '../client/agent-client';
import type { RunPlacement } from '../client/run-placement';
import type { agentWorkflow } from '../workflows/agent-workflow';
import { type AgentWorkflowInput, agentWorkflowType, sendMessageSignal } from '../protocol/definitions';
import { initialSearchAttributes } from '../protocol/search-attributes';
import { oneLine } from '../protocol/text-preview';

/** What `sendToSession` needs to start a session that does not exist yet. */
export interface SessionStart {
  agent: string;
  workflowId: string;
  /** Data for approval policies and `prepareCall`; the chat handler sets it from `authorize`. */
  runtimeContext?: Record<string, unknown>;
  /** Set Cadre's search attributes on a new session (the server must have them registered). */
  searchAttributes?: boolean;
}

/**
 * Delivers `text` to the session `workflowId`, starting it first when it does not exist, in one
 * call that cannot race (Temporal's signal-with-start): two first messages make one session.
 * The input is the one `AgentClient.start` builds for `{ mode: 'session' }`.
 */
export async function sendToSession(client: AgentClient, start: SessionStart, text: string): Promise<void> {
  const placement = client.placement(start.runtimeContext, 'high');
  await client.client.workflow.signalWithStart<typeof agentWorkflow, [{ text: string }]>(agentWorkflowType, {
    ...(await startOptions(client, start, text, placement)),
    args: [sessionInput(start, placement)],
    signal: sendMessageSignal,
    signalArgs: [{ text }],
  });
}

/**
 * Starts the session `workflowId` with `text` as its first message, for a chat that has no session
 * yet. A client on a worker's connection (`AgentClient.fromWorker`) starts it eagerly: that worker
 * takes its first workflow task in the start call's response. Should a session have started
 * meanwhile (two first messages at once), the message goes to it by {@link sendToSession}.
 */
export async function startSession(client: AgentClient, start: SessionStart, text: string): Promise<void> {
  try {
    const placement = client.placement(start.runtimeContext, 'high');
    await client.checkCapacity(placement.tenant);
    await client.client.workflow.start<typeof agentWorkflow>(agentWorkflowType, {
      ...(await startOptions(client, start, text, placement)),
      args: [{ ...sessionInput(start, placement), prompt: text }],
      ...(client.startsEagerly ? { requestEagerStart: true } : {}),
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    await sendToSession(client, start, text);
  }
}

/** The input `AgentClient.start` builds for `{ mode: 'session' }`. */
function sessionInput(start: SessionStart, placement: RunPlacement): AgentWorkflowInput {
  return {
    agent: start.agent,
    mode: 'session',
    depth: 0,
    rootWorkflowId: start.workflowId,
    runtimeContext: start.runtimeContext,
    ...(placement.tenant ? { tenant: placement.tenant } : {}),
  };
}

/** The start options both ways of starting a session share: the high-priority lane once a worker polls it. */
async function startOptions(client: AgentClient, start: SessionStart, text: string, placement: RunPlacement) {
  return {
    workflowId: start.workflowId,
    taskQueue: await client.queueFor(placement.priority),
    staticSummary: `${start.agent} (session): ${oneLine(text, 100)}`,
    typedSearchAttributes:
      start.searchAttributes === false
        ? undefined
        : initialSearchAttributes(start.agent, 0, start.workflowId, placement.tenant?.id),
    priority: placement.priority,
  };
}
