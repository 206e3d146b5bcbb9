import type { Duration } from '@temporalio/common';
import { ActivityCancellationType, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { AgentSpec, ToolExecutionSettings } from '../agents/agent-definition';
import type { AgentActivities, RunToolArgs, RunToolResult } from '../activities/types';
import {
  allowsLocalAttempt,
  type CallPlacement,
  type LocalBudget,
  retriesAfterLocal,
  runLocalFirst,
} from './local-first';

/**
 * A tool activity's defaults. Tools heartbeat every second while they run, so a short heartbeat
 * timeout finds a dead worker in seconds: a short tool is retried about 5 s after a crash.
 */
export const defaultToolExecution = {
  heartbeatTimeout: '4 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
} as const;

type Activities = ReturnType<typeof proxyActivities<AgentActivities>>;

/** The activities of one tool: on the run's queue, and where the run places it locally, the local attempt and its retries. */
interface ToolCallActivities {
  remote: Activities;
  local?: { here: Activities; retried: Activities; budget: LocalBudget; retryAfter: Duration };
}

/**
 * The `runTool` activity of each tool, with its own timeouts and retry policy (`toolOptions`) over
 * the defaults: a local activity first (see runLocalFirst) when the run's worker serves the agent
 * and the tool is one of the agent's own, not `longRunning` and allowed more than one attempt;
 * else an activity on the run's queue (see `RunQueues`).
 */
export class ToolActivities {
  private readonly byTool = new Map<string, ToolCallActivities>();

  constructor(
    private readonly spec: AgentSpec,
    private readonly placement: CallPlacement,
  ) {}

  /**
   * Runs one call of `toolName` (one attempt with its retries). `remote`: as an activity whatever
   * the run's placement, for a call a human approved (its status follows by signal). Not
   * `async` on the activity path: the call's promise is the activity's own (every promise costs
   * the sandbox a stack trace).
   */
  run(toolName: string, summary: string, args: RunToolArgs, remote = false): Promise<RunToolResult> {
    const { remote: onQueue, local } = this.of(toolName);
    const { queues } = this.placement;
    if (!local || remote) return onQueue.runTool.executeWithOptions({ summary, taskQueue: queues.current }, [args]);
    const own = this.spec.toolOptions?.[toolName] ?? {};
    return runLocalFirst({
      here: (call) => local.here.runToolHere.executeWithOptions({ summary }, [args, call]),
      remote: () => onQueue.runTool.executeWithOptions({ summary, taskQueue: queues.current }, [args]),
      retried: () => local.retried.runTool.executeWithOptions({ summary, taskQueue: queues.current }, [args]),
      adopt: {
        summary,
        startToCloseTimeout: own.timeout ?? this.spec.toolTimeout,
        heartbeatTimeout: own.heartbeatTimeout ?? defaultToolExecution.heartbeatTimeout,
      },
      budget: local.budget,
      retryAfter: local.retryAfter,
      queues,
    });
  }

  /** The activities to run `toolName` with (proxies are made once per tool; making one records nothing). */
  private of(toolName: string): ToolCallActivities {
    let activities = this.byTool.get(toolName);
    if (activities) return activities;
    const own: ToolExecutionSettings = this.spec.toolOptions?.[toolName] ?? {};
    const startToCloseTimeout = own.timeout ?? this.spec.toolTimeout;
    // Tool errors come back as results; retries cover only lost workers and timeouts.
    const retry = { ...defaultToolExecution.retry, ...own.retry };
    const options = {
      ...(this.placement.priority ? { priority: this.placement.priority } : {}),
      startToCloseTimeout,
      heartbeatTimeout: own.heartbeatTimeout ?? defaultToolExecution.heartbeatTimeout,
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    };
    const { budget } = this.placement;
    // An MCP server's tool (not among the agent's own) calls another server: it stays an activity.
    const local =
      budget && !own.longRunning && this.spec.toolNames.includes(toolName) && allowsLocalAttempt(retry)
        ? {
            here: proxyLocalActivities<AgentActivities>({
              startToCloseTimeout,
              cancellationType: options.cancellationType,
              retry: { maximumAttempts: 1 },
            }),
            retried: proxyActivities<AgentActivities>({ ...options, retry: retriesAfterLocal(retry) }),
            budget,
            retryAfter: retry.initialInterval,
          }
        : undefined;
    activities = { remote: proxyActivities<AgentActivities>({ ...options, retry }), ...(local ? { local } : {}) };
    this.byTool.set(toolName, activities);
    return activities;
  }
}
