// @chatwire/mcp: MCP servers' tools in chatwire's tool catalog, called as the caller with a token chatwire signs.
export { mcpToolSource } from './mcp-tool-source.js';
export type { McpToolSource, McpToolSourceOptions } from './mcp-tool-source.js';
export { mcpToolSourceFromEnv } from './mcp-tool-source-from-env.js';
export type { McpServerConfig, McpHttpServer, McpStdioServer } from './mcp-server-config.js';
export type { McpSigningKey } from './caller-token-signer.js';
export type { ChangedMcpTool, McpToolDefinition } from './tool-pins.js';
