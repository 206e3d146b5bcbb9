/**
 * `cadre/mcp`: Cadre agents as MCP tools, for every MCP client. A tool call is a durable run; a
 * client with the Tasks extension polls it as a task. Needs `@modelcontextprotocol/server` and
 * `@modelcontextprotocol/node`. See docs/mcp.md.
 */
export { type CadreMcpServer, createMcpServer, type McpServerOptions, type McpUser } from './mcp-server';
