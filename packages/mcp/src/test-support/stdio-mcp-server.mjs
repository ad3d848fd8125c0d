// A real MCP server on stdio (the official SDK), started as a child process by the stdio test.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'stdio-test-server', version: '1.0.0' });
server.registerTool('whoami', { description: 'Says which process answers.', inputSchema: { greeting: z.string() } }, async ({ greeting }) => ({
  content: [{ type: 'text', text: `${greeting} from pid ${process.pid}; env token: ${process.env.CHATWIRE_TEST_CALLER_TOKEN ?? 'none'}` }],
}));
await server.connect(new StdioServerTransport());
