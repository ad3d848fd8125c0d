/**
 * A child process (started by `forkEchoMcpServer`) serving one real MCP server with an `echo` tool on a
 * loopback port, so that the MCP bench's server runs in a process of its own, as in a deployment. It
 * measures itself: each `echo` handler's time, and each request's time in this process (from its arrival
 * to the end of its answer). Argument `json`: JSON answers instead of SSE streams.
 */
import { z } from 'zod';
import { startMcpServer } from './start-mcp-server.js';

export type EchoServerCommand = { type: 'times' } | { type: 'down' };
export type EchoServerReply = { type: 'listening'; url: string } | { type: 'times'; handler: number[]; served: number[] };

let handler: number[] = [];
let served: number[] = [];
const echo = async (input: { text: string; n: number }) => ({ text: input.text, n: input.n, at: 'echo' });

const server = await startMcpServer(
  (mcp) => {
    mcp.registerTool('echo', { description: 'Echoes its input.', inputSchema: { text: z.string(), n: z.number() } }, async (input) => {
      const start = performance.now();
      const output = await echo(input);
      handler.push(performance.now() - start);
      return { content: [], structuredContent: output };
    });
  },
  { jsonResponse: process.argv.includes('json'), keepNoRequests: true, onServed: (ms) => served.push(ms) },
);

const reply = (message: EchoServerReply) => process.send!(message);
process.on('message', (command: EchoServerCommand) => {
  if (command.type === 'times') {
    reply({ type: 'times', handler, served });
    handler = [];
    served = [];
  } else {
    void server.down().then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
reply({ type: 'listening', url: server.url });
