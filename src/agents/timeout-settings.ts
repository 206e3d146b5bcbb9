import type { TimeoutConfiguration, ToolSet } from 'ai';
import { ConfigurationError } from '../errors';
import { positiveDurationMs } from '../protocol/durations';

/** A duration: a Temporal duration string (`'30 seconds'`) or milliseconds. */
export type DurationSetting = string | number;

/**
 * Deadlines of an agent's runs (Temporal durations such as `'30 minutes'`), after the AI SDK's
 * `WorkflowAgent`. Each is optional; see docs/usage-and-budgets.md.
 */
export interface AgentTimeouts {
  /** Bounds one activation (a task run, or one turn of a session): it then stops as `timed-out` with a valid transcript. */
  total?: DurationSetting;
  /** Bounds one model step, each attempt (the step's start-to-close timeout); it wins over `modelStepTimeout`. */
  step?: DurationSetting;
  /** Fails a streaming step attempt whose provider sends nothing for this long; the step retries. */
  firstChunk?: DurationSetting;
  /** Count time spent waiting for a human's approval against `total`. Default false. */
  countApprovalWaits?: boolean;
}

/** What the workflow needs of `timeout.total`: the duration in milliseconds and whether approval waits count. */
export interface TotalTimeoutSpec {
  ms: number;
  countApprovalWaits: boolean;
}

/** `timeout` as `defineAgent` takes it: Cadre's settings, or the AI SDK's `TimeoutConfiguration` (ms). */
export type AgentTimeoutSetting = AgentTimeouts | TimeoutConfiguration<ToolSet>;

/** Cadre's settings of either form: a number is the AI SDK's total in ms; `totalMs`, `stepMs`, `firstChunkMs` map over. */
export function timeoutsOf(setting: AgentTimeoutSetting | undefined): AgentTimeouts {
  if (setting === undefined) return {};
  if (typeof setting === 'number') return { total: setting };
  const sdk = setting as Exclude<TimeoutConfiguration<ToolSet>, number>;
  const own = setting as AgentTimeouts;
  const total = own.total ?? sdk.totalMs;
  const step = own.step ?? sdk.stepMs;
  const firstChunk = own.firstChunk ?? sdk.firstChunkMs;
  return {
    ...(total !== undefined ? { total } : {}),
    ...(step !== undefined ? { step } : {}),
    ...(firstChunk !== undefined ? { firstChunk } : {}),
    ...(own.countApprovalWaits !== undefined ? { countApprovalWaits: own.countApprovalWaits } : {}),
  };
}

/** Milliseconds of a duration setting, or a ConfigurationError naming the agent and the setting. */
export function durationMs(agent: string, setting: string, value: DurationSetting): number {
  const ms = positiveDurationMs(value);
  if (ms === undefined) {
    throw new ConfigurationError(
      `Agent '${agent}' has ${setting} '${String(value)}', which is no duration. Use a Temporal duration such as '30 seconds' or '2 hours'.`,
    );
  }
  return ms;
}

/** Refuses timeouts that are not durations, when the agent is defined rather than at its first run. */
export function checkTimeouts(agent: string, setting: AgentTimeoutSetting | undefined): void {
  if (setting === undefined) return;
  if (typeof setting === 'object') {
    for (const unsupported of ['chunkMs', 'toolMs', 'tools'] as const) {
      if (unsupported in setting) {
        throw new ConfigurationError(
          `Agent '${agent}' has timeout.${unsupported}, which Cadre does not support. Use toolTimeout or toolOptions for tools, and timeout.firstChunk for a stalled stream.`,
        );
      }
    }
  }
  const timeout = timeoutsOf(setting);
  for (const name of ['total', 'step', 'firstChunk'] as const) {
    const value = timeout[name];
    if (value !== undefined) durationMs(agent, `timeout.${name}`, value);
  }
}
