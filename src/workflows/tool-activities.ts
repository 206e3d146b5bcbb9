import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import type { AgentSpec, ToolExecutionSettings } from '../agents/agent-definition';
import type { AgentActivities } from '../activities/types';

/**
 * A tool activity's defaults. Tools heartbeat every second while they run, so a short heartbeat
 * timeout finds a dead worker in seconds: a short tool is retried about 5 s after a crash.
 */
export const defaultToolExecution = {
  heartbeatTimeout: '4 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
} as const;

/** The `runTool` activity of each tool, with its own timeouts and retry policy (`toolOptions`) over the defaults. */
export class ToolActivities {
  private readonly byTool = new Map<string, ReturnType<typeof proxyActivities<AgentActivities>>>();

  constructor(
    private readonly spec: AgentSpec,
    /** The agent's activity queue. */
    private readonly taskQueue: string,
  ) {}

  /** The activities to run `toolName` with (proxies are made once per tool; making one records nothing). */
  of(toolName: string): ReturnType<typeof proxyActivities<AgentActivities>> {
    let activities = this.byTool.get(toolName);
    if (!activities) {
      const own: ToolExecutionSettings = this.spec.toolOptions?.[toolName] ?? {};
      activities = proxyActivities<AgentActivities>({
        taskQueue: this.taskQueue,
        startToCloseTimeout: own.timeout ?? this.spec.toolTimeout,
        heartbeatTimeout: own.heartbeatTimeout ?? defaultToolExecution.heartbeatTimeout,
        cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
        // Tool errors come back as results; retries cover only lost workers and timeouts.
        retry: { ...defaultToolExecution.retry, ...own.retry },
      });
      this.byTool.set(toolName, activities);
    }
    return activities;
  }
}
