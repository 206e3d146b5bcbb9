import { AgentClient } from '../../client/agent-client';

/**
 * Runs a command's `decide` with a client from the environment: 0 once it has written what it
 * did, 1 with the refusal's text when the run refused (unknown id, already decided, ...). The
 * client is closed either way.
 */
export async function withDecidingClient(
  write: (line: string) => void,
  decide: (client: AgentClient) => Promise<void>,
): Promise<number> {
  const client = await AgentClient.connect();
  try {
    await decide(client);
    return 0;
  } catch (error) {
    write((error as Error).message);
    return 1;
  } finally {
    await client.close();
  }
}
