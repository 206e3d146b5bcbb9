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
export { scriptedModels, type ScriptedModels } from './scripted-models';
export {
  callTool,
  type Reaction,
  type ScriptStep,
  type ScriptedResponse,
  type ScriptedToolCall,
} from './scripted-step';
export { providerError } from './provider-error';
export { lastToolResult, promptTexts, toolResults, userTexts } from './prompt-inspection';
export { approveAll, expectApprovalRequested, expectNeedsAttention, waitForStatus } from './run-expectations';
export { toolCalls, transcriptText, type ToolCallRecord } from './transcript-views';
export { waitFor, type WaitOptions } from './wait-for';
export { TestLogger, installTestRuntime, testRuntimeOptions } from './test-logger';
export { createTimeSkippingEnvironment, type TimeSkippingEnvironmentOptions } from '../server/test-server';
export { startDevServer, type DevServer, type DevServerOptions } from '../server/dev-server';
