/**
 * An MCP server in its own process for the restart test: serves `mcp-slow` and `mcp-helper` of the
 * test's task queue on a free port, prints `url <url>` once it listens, and runs until killed.
 */
import { AgentClient } from '../../src/client/agent-client';
import { createMcpServer } from '../../src/mcp/mcp-server';

const [address, namespace, taskQueue] = process.argv.slice(2) as [string, string, string];

async function main(): Promise<void> {
  const client = await AgentClient.connect({ address, namespace, taskQueue });
  const server = createMcpServer({
    client,
    agents: ['mcp-helper', 'mcp-slow'],
    authorize: (request) => (request.headers.authorization === 'Bearer alice-token' ? { id: 'alice' } : undefined),
    pollIntervalMs: 100,
  });
  process.stdout.write(`url ${await server.listen()}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
