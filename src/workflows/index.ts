/** Workflow entry point bundled by the worker; sandbox-safe. */
export { agentWorkflow } from './agent-workflow';
