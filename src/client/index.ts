/**
 * `cadre/client`: starting and driving agent runs from any backend. Loads the Temporal client and
 * the conversation store readers, never the worker or its native code.
 */
import '../peers/assert-peers';
// Starting and driving runs.
export { AgentClient, type AgentClientOptions, type StartAgentOptions } from './agent-client';
export { AgentHandle } from './agent-handle';
export type { AgentPrompt } from './prompt-input';
export { maxPromptContentBytes } from '../protocol/prompt-content';
export type { StreamedEvent, StreamOptions } from './tree-stream';
export { forkMemoKey, type ForkOptions } from './run-fork';
export { MemoryScope } from './memory-scope';
export { AgentScheduleHandle } from './agent-schedule-handle';
export type { AgentScheduleOptions } from './schedule-options';
// Connecting, and the errors of connecting.
export { resolveTemporalConnection, type TemporalConnectionOptions } from './temporal-connection';
export { TemporalUnreachableError } from './temporal-unreachable';
export { closableConnectionInterceptors } from './closed-connection';
// Rolling out a new build (docs/versioning.md).
export { buildDrainage, currentBuild, openRunsOnBuild, runVersioning } from './deployment-builds';
export { moveSessions, type MoveSessionsOptions } from './session-moves';
