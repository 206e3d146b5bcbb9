import type { AgentRegistry } from '../agents/agent-registry';
import type { ModelRegistry } from '../agents/model-registry';
import type { ApprovalSigner } from './approval-signer';
import type { TranscriptCache } from './transcript-cache';

/** What the activities close over: the worker's registries and its transcript cache. */
export interface ActivityDependencies {
  agents: AgentRegistry;
  models: ModelRegistry;
  transcripts: TranscriptCache;
  /** Signs and verifies approval requests; absent when the worker has no approval secret. */
  signer?: ApprovalSigner;
}
