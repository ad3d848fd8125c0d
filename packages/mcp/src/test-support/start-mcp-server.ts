import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** What the server received: every request's method, headers and body, as they arrived. */
export interface ReceivedRequest {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestMcpServer {
  /** The Streamable HTTP endpoint (`http://127.0.0.1:<port>/mcp`). */
  url: string;
  received: ReceivedRequest[];
  /** Sessions initialized and not yet ended by the client's `DELETE`. */
  openSessions(): number;
  /** Replaces the tools new sessions get (a changed definition shows from the next session on). */
  define(tools: (server: McpServer) => void): void;
  /** Stops listening and cuts every connection: the server goes down. */
  down(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface StartMcpServerOptions {
  /** Answers requests with JSON instead of an SSE stream (the SDK's `enableJsonResponse`). */
  jsonResponse?: boolean;
  /** Keeps no copy of the requests (`received` stays empty), as a long bench wants. */
  keepNoRequests?: boolean;
  /** Told how long each request took in this server, from its arrival to the end of its answer, in ms. */
  onServed?: (ms: number) => void;
}

/**
 * A real MCP server (the official SDK's `McpServer` on its Streamable HTTP transport, with sessions) on a
 * loopback port. Each session gets a fresh `McpServer` with the tools of the last `define`.
 */
export async function startMcpServer(tools: (server: McpServer) => void, options: StartMcpServerOptions = {}): Promise<TestMcpServer> {
  let defineTools = tools;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const received: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const { onServed } = options;
  const http = createServer(async (request, response) => {
    if (onServed !== undefined) {
      const arrived = performance.now();
      response.once('finish', () => onServed(performance.now() - arrived));
    }
    const body = await readBody(request);
    if (options.keepNoRequests !== true) received.push({ method: request.method ?? '', headers: request.headers, body });
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (transport === undefined) {
      if (sessionId !== undefined) {
        response.writeHead(404).end();
        return;
      }
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: options.jsonResponse === true,
        onsessioninitialized: (id) => void sessions.set(id, created),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      const mcp = new McpServer({ name: 'test-server', version: '1.0.0' });
      defineTools(mcp);
      await mcp.connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response, body === '' ? undefined : JSON.parse(body));
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(http);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    openSessions: () => sessions.size,
    define: (next) => void (defineTools = next),
    down: async () => {
      const closed = new Promise((resolve) => http.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** A loopback HTTP server that answers every request with `answer` (or never, when `answer` is null). */
export async function startPlainServer(answer: ((request: IncomingMessage) => { status: number; headers?: Record<string, string> }) | null) {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const http = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    if (answer === null) return;
    const { status, headers } = answer(request);
    response.writeHead(status, headers).end();
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(http);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    close: async () => {
      const closed = new Promise((resolve) => http.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** A bare SDK client of `url` (no chatwire in between), connected: the baseline of the MCP bench. */
export async function connectBareClient(url: string): Promise<{ sessionId: string; call(name: string, args: Record<string, unknown>): Promise<unknown>; close(): Promise<void> }> {
  const client = new Client({ name: 'bare', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { sessionId: transport.sessionId!, call: (name, args) => client.callTool({ name, arguments: args }), close: () => client.close() };
}
