import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ChatwireError } from '@chatwire/storage';
import { createMcpHttpFetch } from './mcp-http-fetch.js';
import type { McpServer } from './mcp-server-config.js';
import type { OutputSchemaValidators } from './output-schema-validators.js';
import type { McpToolDefinition } from './tool-pins.js';

/** Headers for each request to an HTTP server (the caller's identity), computed when they are needed. */
export type RequestHeaders = () => Promise<Record<string, string>>;

/** One server's client for one turn. */
export interface ServerConnection {
  client: Client;
  /** Ends the session (a `DELETE`, bounded) and the connection; never throws. */
  close(): Promise<void>;
}

const MAX_LIST_PAGES = 20;
/** Every turn's clients share its keep-alive connections. */
const mcpFetch = createMcpHttpFetch();
const SESSION_END_MS = 1_000;

/**
 * Runs `work` and fails it with TIMEOUT after `timeoutMs`, or as soon as `signal` aborts, whether `work`
 * honours the signal it is given or not.
 */
export async function withinDeadline<T>(what: string, timeoutMs: number, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ChatwireError('TIMEOUT', `${what} took longer than ${timeoutMs} ms`)), timeoutMs);
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  const ended = new Promise<never>((_, reject) => {
    const fail = () => reject(controller.signal.reason);
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener('abort', fail, { once: true });
  });
  try {
    return await Promise.race([work(controller.signal), ended]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

async function transportFor(server: McpServer, headers: RequestHeaders): Promise<Transport> {
  if (server.kind === 'stdio') {
    // Loaded only when a stdio server is configured: it spawns processes, which some runtimes cannot.
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    return new StdioClientTransport({ command: server.command, args: server.args, env: server.env, cwd: server.cwd, stderr: 'ignore' });
  }
  return new StreamableHTTPClientTransport(server.url, {
    // Redirects are followed within the server's origin only: the token is never sent anywhere else.
    redirectPolicy: 'same-origin',
    fetch: async (url, init) => {
      // The SDK builds a new Headers for each request: the caller's identity is set on it, not on a copy.
      const merged = init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
      for (const [name, value] of Object.entries(await headers())) merged.set(name, value);
      return mcpFetch(url, { ...init, headers: merged });
    },
  });
}

/** Connects to one server for one turn, within its connect timeout and the turn's signal. */
export async function connectMcpServer(server: McpServer, headers: RequestHeaders, validators: OutputSchemaValidators, signal: AbortSignal): Promise<ServerConnection> {
  const transport = await transportFor(server, headers);
  const client = new Client({ name: 'chatwire', version: '0.1.0' }, { jsonSchemaValidator: validators });
  const close = async (): Promise<void> => {
    if (transport instanceof StreamableHTTPClientTransport) {
      const ended = transport.terminateSession().catch(() => undefined);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, SESSION_END_MS)))]);
      clearTimeout(timer);
    }
    await client.close().catch(() => undefined);
  };
  try {
    await withinDeadline(`connecting to MCP server '${server.name}'`, server.connectTimeoutMs, signal, (deadline) =>
      client.connect(transport, { signal: deadline, timeout: server.connectTimeoutMs }),
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { client, close };
}

/** Every tool the server lists (all pages), within its connect timeout and the turn's signal. */
export async function listMcpTools(server: McpServer, client: Client, signal: AbortSignal): Promise<McpToolDefinition[]> {
  return withinDeadline(`listing the tools of MCP server '${server.name}'`, server.connectTimeoutMs, signal, async (deadline) => {
    const tools: McpToolDefinition[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor }, { signal: deadline, timeout: server.connectTimeoutMs });
      for (const tool of listed.tools) tools.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema });
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  });
}
