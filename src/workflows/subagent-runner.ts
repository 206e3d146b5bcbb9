import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowCancellationType,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { ToolResultPart } from 'ai';
import type { AgentSpec } from '../agents/agent-definition';
import type { SubagentSpec } from '../agents/subagent-definition';
import type { AgentActivities, ModelToolCall } from '../activities/types';
import type { AgentState, ChildRun } from './agent-state';
import type { AgentRunResult, AgentWorkflowInput } from './definitions';
import { describeFailure } from './failures';
import {
  agentDepthKey,
  agentNameKey,
  agentStatusKey,
  pendingApprovalsKey,
  rootWorkflowIdKey,
} from './search-attributes';
import { oneLine } from './one-line';

type Output = ToolResultPart['output'];

const { mapSubagentOutput } = proxyActivities<AgentActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/**
 * Runs subagent tool calls as child workflows: checks the depth limit, starts the child with
 * a fresh or forked context, and turns its end into the one result the parent's model sees.
 */
export class SubagentRunner {
  constructor(
    private readonly input: AgentWorkflowInput,
    private readonly spec: AgentSpec,
    private readonly state: AgentState,
    private readonly searchAttributesEnabled: boolean,
  ) {}

  /** True when `toolName` is a subagent of this agent. */
  handles(toolName: string): boolean {
    // Specs recorded before subagents existed have no table.
    return Object.hasOwn(this.spec.subagents ?? {}, toolName);
  }

  /** Runs the child for one call and returns what the parent's model sees. */
  async run(call: ModelToolCall): Promise<Output> {
    const entry = this.spec.subagents?.[call.toolName] as SubagentSpec;
    const depth = (this.input.depth ?? 0) + 1;
    if (depth > entry.maxDepth) {
      return {
        type: 'error-text',
        value:
          `Error: delegation refused: subagent '${call.toolName}' would run at depth ${depth}, past its maxDepth of ${entry.maxDepth}. ` +
          'Do this part yourself with your own tools.',
      };
    }
    const task = String((call.input as { task?: unknown } | undefined)?.task ?? '');
    const parentId = workflowInfo().workflowId;
    const rootWorkflowId = this.input.rootWorkflowId ?? parentId;
    const child: ChildRun = {
      workflowId: `${parentId}/${call.toolName}-${this.state.children.length + 1}`,
      toolName: call.toolName,
      toolCallId: call.toolCallId,
      agent: entry.agent,
      depth,
      status: 'running',
    };
    this.state.children.push(child);
    this.state.events.emit({
      type: 'subagent-started',
      childWorkflowId: child.workflowId,
      toolName: call.toolName,
      agent: entry.agent,
      childDepth: depth,
      task,
    });
    const childInput: AgentWorkflowInput = {
      agent: entry.agent,
      mode: 'task',
      prompt: task,
      depth,
      rootWorkflowId,
      parentWorkflowId: parentId,
      overrides: {
        ...(entry.persona ? { persona: entry.persona } : {}),
        ...(entry.toolFilter ? { toolFilter: entry.toolFilter } : {}),
        ...(entry.modelRoute ? { modelRoute: entry.modelRoute } : {}),
        ...(entry.modelSettings ? { modelSettings: entry.modelSettings } : {}),
      },
      ...(entry.context === 'fork'
        ? { initialTranscript: this.state.transcript.slice(0, this.state.activationStart) }
        : {}),
      ...(this.input.runtimeContext ? { runtimeContext: this.input.runtimeContext } : {}),
    };
    let output: Output;
    try {
      const result = await executeChild('agentWorkflow', {
        workflowId: child.workflowId,
        args: [childInput],
        staticSummary: `${entry.agent} (subagent '${call.toolName}' of ${this.spec.name}, depth ${depth}): ${oneLine(task, 100)}`,
        cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
        ...(this.searchAttributesEnabled
          ? {
              typedSearchAttributes: [
                { key: agentNameKey, value: entry.agent },
                { key: agentDepthKey, value: depth },
                { key: rootWorkflowIdKey, value: rootWorkflowId },
                { key: agentStatusKey, value: 'starting' },
                { key: pendingApprovalsKey, value: 0 },
              ],
            }
          : {}),
      });
      output = await this.outputOf(call.toolName, child, result as AgentRunResult);
    } catch (error) {
      // This run itself is being cancelled or interrupted: the child was cancelled with it.
      if (CancellationScope.current().consideredCancelled) {
        child.status = 'cancelled';
        this.finished(child, 'cancelled');
        throw error;
      }
      output = this.failureOutput(child, error);
    }
    return output;
  }

  private async outputOf(toolName: string, child: ChildRun, result: AgentRunResult): Promise<Output> {
    child.status = result.stopReason === 'completed' ? 'completed' : result.stopReason;
    this.finished(child, result.stopReason);
    if (result.stopReason !== 'completed') {
      const diagnostics =
        result.stopReason === 'max-steps'
          ? `The subagent used all ${result.steps} of its steps without a final answer.`
          : `The subagent stopped after ${result.steps} steps.`;
      return errorOutput(result.stopReason, diagnostics, result.text);
    }
    if (!this.spec.subagents?.[toolName]?.mapsOutput) return { type: 'text', value: result.text };
    const mapped = await mapSubagentOutput({
      agent: this.spec.name,
      toolName,
      result: { text: result.text, stopReason: result.stopReason, steps: result.steps, workflowId: child.workflowId },
    });
    return mapped.output;
  }

  private failureOutput(child: ChildRun, error: unknown): Output {
    const cancelled = isCancellation(error);
    child.status = cancelled ? 'cancelled' : 'failed';
    this.finished(child, child.status);
    if (cancelled) return errorOutput('cancelled', 'The subagent run was cancelled before it finished.', '');
    const cause = error instanceof ChildWorkflowFailure ? error.cause : undefined;
    const details =
      cause instanceof ApplicationFailure ? (cause.details?.[0] as { partialText?: string } | undefined) : undefined;
    return errorOutput('failed', describeFailure(error), details?.partialText ?? '');
  }

  private finished(child: ChildRun, stopReason: string): void {
    this.state.events.emit({
      type: 'subagent-finished',
      childWorkflowId: child.workflowId,
      toolName: child.toolName,
      stopReason,
    });
  }
}

/** `Error: <stop reason>`, then diagnostics, then any partial text: never a partial success dressed as a result. */
function errorOutput(stopReason: string, diagnostics: string, partialText: string): Output {
  const lines = [`Error: ${stopReason}`, diagnostics];
  if (partialText) lines.push(`Partial text: ${partialText}`);
  return { type: 'error-text', value: lines.join('\n') };
}
