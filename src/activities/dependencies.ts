import type { AgentRegistry } from '../agents/agent-registry';
import type { ModelRegistry } from '../agents/model-registry';
import type { ApprovalSigner } from './approval-signer';
import type { ConversationIo } from './conversation-io';
import type { McpClients } from './mcp-clients';
import type { InFlightCalls } from './in-flight-calls';

/** What the activities close over: the worker's registries, the conversation store and the MCP connections. */
export interface ActivityDependencies {
  agents: AgentRegistry;
  models: ModelRegistry;
  conversations: ConversationIo;
  /** Signs and verifies approval requests; absent when the worker has no approval secret. */
  signer?: ApprovalSigner;
  /** True when the namespace has Cadre's search attributes registered (specs tell the workflow). */
  searchAttributes?: boolean;
  /** The worker's MCP connections; absent, an agent with `mcpServers` fails its steps with an error saying so. */
  mcp?: McpClients;
  /** Each served agent's definition fingerprint; specs and model steps carry it so a run can tell a changed definition. */
  fingerprints?: ReadonlyMap<string, string>;
  /** Most time between two batches of a streaming step's live deltas; default 100 ms. */
  liveIntervalMs?: number;
  /**
   * Present when the worker runs model steps and tools as local activities where the run's worker
   * serves the agent (see `AgentWorkerOptions.localActivities`): the calls it handed off.
   */
  inFlight?: InFlightCalls;
}
