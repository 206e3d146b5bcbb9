/** Workflow entry point bundled by the worker; sandbox-safe. */
export { agentWorkflow } from './agent-workflow';
export {
  endSessionSignal,
  sendMessageSignal,
  statusQuery,
  transcriptQuery,
  type AgentRunResult,
  type AgentStatusReport,
  type AgentWorkflowInput,
} from '../protocol/definitions';
export { cadreSearchAttributes } from '../protocol/search-attributes';
