import type { Client } from '@temporalio/client';
import type { AgentEvent } from '../protocol/agent-events';
import { pendingToolCallsQuery } from '../protocol/definitions';
import { labelOf, padOf } from './event-printer';
import { StoppedWatching } from './stopped-watching';
import { cadreCommand } from '../server/command-hints';

/** A call the followed tree waits for: enough to name it in a command. */
interface WaitingCall {
  toolCallId: string;
  workflowId: string;
  toolName: string;
}

/**
 * The command that answers a waiting call from any shell, with its result as JSON or the tool's
 * failure. A subagent's call also names its run, since call ids repeat across a tree.
 */
export function answerLater(rootWorkflowId: string, call: { toolCallId: string; workflowId: string }): string {
  const run = call.workflowId === rootWorkflowId ? '' : ` --workflow ${call.workflowId}`;
  const command = cadreCommand(`submit-result ${rootWorkflowId} ${call.toolCallId}${run}`);
  return `${command} '<result as JSON>'   (or: ${command} --error "...")`;
}

/**
 * The calls to client-side tools that a followed tree waits for, as its events show them: says
 * how to answer each one when it starts waiting and, if the person stops watching, which still wait.
 */
export class AwaitedResults {
  private readonly waiting = new Map<string, WaitingCall>();

  constructor(
    private readonly client: Client,
    private readonly rootWorkflowId: string,
  ) {}

  /**
   * Reads one event of the tree; returns the lines to print after it. A call already answered or
   * closed (a stream replaying a run's past) gets no hint.
   */
  async follow(event: AgentEvent): Promise<string[]> {
    switch (event.type) {
      case 'tool-result-awaited': {
        const pending = await this.client.workflow
          .getHandle(event.workflowId)
          .query(pendingToolCallsQuery)
          .catch(() => []);
        if (!pending.some((call) => call.toolCallId === event.toolCallId)) return [];
        const call = { toolCallId: event.toolCallId, workflowId: event.workflowId, toolName: event.toolName };
        this.waiting.set(keyOf(call), call);
        return [`${padOf(event.depth)}${labelOf(event)}  answer with: ${answerLater(this.rootWorkflowId, call)}`];
      }
      case 'tool-result-submitted':
      case 'tool-result':
        this.waiting.delete(keyOf({ workflowId: event.workflowId, toolCallId: event.toolCallId }));
        return [];
      case 'run-finished':
        for (const [key, call] of this.waiting) if (call.workflowId === event.workflowId) this.waiting.delete(key);
        return [];
      default:
        return [];
    }
  }

  /** What to say when the person stops watching while calls still wait: which, and how to answer them. */
  stoppedWatching(): StoppedWatching | undefined {
    const calls = [...this.waiting.values()];
    if (calls.length === 0) return undefined;
    const which = calls.map((call) => `${call.toolCallId} (${call.toolName})`).join(', ');
    return new StoppedWatching(
      `Stopped watching. The run ${this.rootWorkflowId} is still waiting for the result of tool call${calls.length === 1 ? '' : 's'} ${which}; answer later with:\n` +
        calls.map((call) => `  ${answerLater(this.rootWorkflowId, call)}`).join('\n'),
    );
  }
}

function keyOf(call: { workflowId: string; toolCallId: string }): string {
  return `${call.workflowId} ${call.toolCallId}`;
}
