/**
 * `cadre/testing`: test an agent tree in a few lines. `createAgentTestEnvironment` starts a server
 * (time-skipping by default), a worker and a client; `scriptedModel` and `scriptedModels` play
 * scripts in place of LLMs; the helpers wait for approvals and statuses and read transcripts.
 * Loads the Temporal worker and `@temporalio/testing`.
 */
import '../peers/assert-peers';
export { createAgentTestEnvironment } from './agent-test-environment';
export type { AgentTestEnvironment, AgentTestEnvironmentOptions } from './agent-test-environment-options';
export { ScriptedModel, scriptedModel, reactiveModel } from './scripted-model';
export { scriptedModels } from './scripted-models';
export { callTool } from './scripted-step';
export { providerError } from './provider-error';
export { lastToolResult, promptTexts, toolResults, userTexts } from './prompt-inspection';
export { approveAll, expectApprovalRequested, expectNeedsAttention, waitForStatus } from './run-expectations';
export { toolCalls, transcriptText } from './transcript-views';
export { waitFor } from './wait-for';
export { testRuntimeOptions } from './test-logger';
