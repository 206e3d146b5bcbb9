import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Agent name of the run (`Keyword`), so Temporal UI can list every run of one agent. */
export const agentNameKey = defineSearchAttributeKey('CadreAgent', SearchAttributeType.KEYWORD);
/** Delegation depth: 0 for a root agent, 1 for its subagents, and so on. */
export const agentDepthKey = defineSearchAttributeKey('CadreDepth', SearchAttributeType.INT);
/** Workflow id of the root of the agent tree, so one query lists a whole tree. */
export const rootWorkflowIdKey = defineSearchAttributeKey('CadreRootWorkflowId', SearchAttributeType.KEYWORD);
/** Current status of the run (`running`, `idle`, `awaiting-approval`, ...). */
export const agentStatusKey = defineSearchAttributeKey('CadreStatus', SearchAttributeType.KEYWORD);
/** Number of tool calls waiting for a human decision. */
export const pendingApprovalsKey = defineSearchAttributeKey('CadrePendingApprovals', SearchAttributeType.INT);

/** The tenant a run serves (`Keyword`), set when the run was started with one; every run of its tree has it. */
export const tenantKey = defineSearchAttributeKey('CadreTenant', SearchAttributeType.KEYWORD);

/** Every Cadre search attribute with its type, for servers that must register them before use. */
export const cadreSearchAttributes = [
  agentNameKey,
  agentDepthKey,
  rootWorkflowIdKey,
  agentStatusKey,
  pendingApprovalsKey,
  tenantKey,
] as const;

/**
 * The search attributes a new run starts with: its agent, depth and tree, `starting`, no approvals
 * pending, and its tenant when it has one (only then: namespaces set up before tenants lack `CadreTenant`).
 */
export function initialSearchAttributes(agent: string, depth: number, rootWorkflowId: string, tenant?: string) {
  return [
    { key: agentNameKey, value: agent },
    { key: agentDepthKey, value: depth },
    { key: rootWorkflowIdKey, value: rootWorkflowId },
    { key: agentStatusKey, value: 'starting' },
    { key: pendingApprovalsKey, value: 0 },
    ...(tenant !== undefined ? [{ key: tenantKey, value: tenant }] : []),
  ];
}
