/**
 * `cadre/workflows`: the agent workflows (bundled by the worker; sandbox-safe) and every name a
 * client in any language needs: their types, every signal, query and update, and the search attributes.
 * Only `agentWorkflow` is a function here: the worker registers every exported function as a
 * workflow.
 */
export { agentWorkflow } from './agent-workflow';
export {
  agentWorkflowType,
  approvedToolRunningSignal,
  approvalsQuery,
  childrenQuery,
  decideApprovalSignal,
  decideApprovalUpdate,
  endSessionSignal,
  eventsQuery,
  interruptSignal,
  needsAttentionQuery,
  pendingApprovalsQuery,
  pendingToolCallsQuery,
  resolveAttentionUpdate,
  sendMessageSignal,
  statusQuery,
  subagentSettledSignal,
  submitMessageUpdate,
  submitToolResultUpdate,
  type AgentMode,
  type AgentWorkflowInput,
  type SubagentSettlement,
  type TranscriptPage,
} from '../protocol/definitions';
export { buildMoveRefusals, holdForBuildMoveUpdate, releaseBuildMoveSignal } from '../protocol/build-move';
export { attentionRefusals, type AttentionAction } from '../protocol/attention-types';
export { cadreSearchAttributes } from '../protocol/search-attributes';
export { toolResultRefusals } from '../protocol/client-tool-types';
export type { BuildMoveInput } from '../protocol/build-move';
