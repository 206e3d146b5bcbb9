import type { AgentClient } from '../client/agent-client';
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
  const input: AgentWorkflowInput = {
    agent: start.agent,
    mode: 'session',
    depth: 0,
    rootWorkflowId: start.workflowId,
    runtimeContext: start.runtimeContext,
  };
  await client.client.workflow.signalWithStart<typeof agentWorkflow, [{ text: string }]>(agentWorkflowType, {
    workflowId: start.workflowId,
    taskQueue: client.taskQueue,
    args: [input],
    signal: sendMessageSignal,
    signalArgs: [{ text }],
    staticSummary: `${start.agent} (session): ${oneLine(text, 100)}`,
    typedSearchAttributes:
      start.searchAttributes === false ? undefined : initialSearchAttributes(start.agent, 0, start.workflowId),
  });
}
