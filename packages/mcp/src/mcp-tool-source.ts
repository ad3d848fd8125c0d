import { ChatwireError, type Caller } from '@chatwire/storage';
import type { ToolSource } from '@chatwire/core';
import { callToolOutput } from './call-tool-output.js';
import { createCallerTokenSigner, type McpSigningKey } from './caller-token-signer.js';
import { connectMcpServer, listMcpTools, type RequestHeaders, type ServerConnection } from './connect-mcp-server.js';
import { checkMcpServers, type McpServer, type McpServerConfig } from './mcp-server-config.js';
import { checkStructuredContent, OutputSchemaValidators } from './output-schema-validators.js';
import { ToolListCache, ToolPins, type ChangedMcpTool, type McpToolDefinition } from './tool-pins.js';

type OpenedSource = Awaited<ReturnType<ToolSource['open']>>;
type SourceTool = OpenedSource['tools'][number];
type Problem = OpenedSource['problems'][number];

export interface McpToolSourceOptions {
  servers: readonly McpServerConfig[];
  /**
   * Signs the token each HTTP server gets per turn: `sub` the caller, `aud` the server's audience, 60 s, a
   * new `jti`. Use a key of its own, never the one that verifies callers' tokens. Needed unless `headers`.
   */
  signingKey?: McpSigningKey;
  /** The tokens' `iss` (default `chatwire`). */
  issuer?: string;
  /** Your own headers for each HTTP server per turn (instead of a signed token): never the caller's token. */
  headers?: (caller: Caller, server: { name: string; url: string; audience: string }) => Record<string, string> | Promise<Record<string, string>>;
  /** How long a server's tool list for one caller is reused, in ms (default 30 000; 0: listed every turn). */
  listCacheMs?: number;
  /** Asked when a tool's definition changed after it was first seen: true offers the new one (default: left out). */
  acceptChangedTools?: (change: ChangedMcpTool) => boolean;
  /** Failures of calls that the model is told about and the operator should know of (not tools' own errors). */
  onError?: (error: unknown, info: { server: string; tool: string }) => void;
}

/** MCP servers as a tool source for `createToolCatalog({ sources: [...] })`. */
export interface McpToolSource extends ToolSource {
  /** The checked servers, defaults filled in. */
  readonly servers: readonly McpServer[];
  /** Accepts the next definition seen of a changed tool (`mcp_crm_find`), whatever it is. */
  acceptChangedTool(wireName: string): void;
}

const TOKEN_REFRESH_MS = 40_000;
const NO_CLOSE = async (): Promise<void> => undefined;
const wireNameOf = (server: McpServer, tool: string): string => server.prefix + tool.replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * Tools of MCP servers, called as the caller: one client per server per turn (connected and listed within
 * `connectTimeoutMs`, closed when the turn ends), a token chatwire signs for that server (or your
 * `headers`), never the caller's own token. A server that cannot be reached leaves its tools out of that
 * turn; a tool whose definition changed is left out until accepted. Configuration mistakes throw
 * `ChatwireError('CONFIGURATION')` here.
 */
export function mcpToolSource(options: McpToolSourceOptions): McpToolSource {
  const servers = checkMcpServers(options.servers, 'mcpToolSource: servers', true);
  for (const server of servers) {
    const long = [...(server.tools ?? [])].find((tool) => wireNameOf(server, tool).length > 64);
    if (long !== undefined) throw new ChatwireError('CONFIGURATION', `mcpToolSource: '${wireNameOf(server, long)}' is longer than the 64 characters providers accept`);
  }
  if (options.headers === undefined && options.signingKey === undefined && servers.some((server) => server.kind === 'http')) {
    throw new ChatwireError('CONFIGURATION', 'mcpToolSource: needs signingKey (chatwire signs the caller\'s identity for each server) or headers');
  }
  const sign = options.signingKey === undefined ? null : createCallerTokenSigner(options.signingKey, options.issuer ?? 'chatwire');
  const pins = new ToolPins(options.acceptChangedTools);
  const lists = new ToolListCache(options.listCacheMs ?? 30_000);
  const validators = new OutputSchemaValidators();

  function identity(caller: Caller, server: McpServer): RequestHeaders {
    if (server.kind !== 'http') return async () => ({});
    const { headers } = options;
    if (headers !== undefined) {
      let computed: Promise<Record<string, string>> | undefined;
      return () => (computed ??= Promise.resolve(headers(caller, { name: server.name, url: server.url.href, audience: server.audience })));
    }
    // One token per server per turn, signed again before it expires in a long turn.
    let token: { value: Promise<string>; at: number } | undefined;
    return async () => {
      if (token === undefined || Date.now() - token.at > TOKEN_REFRESH_MS) token = { value: sign!(caller, server.audience), at: Date.now() };
      return { authorization: `Bearer ${await token.value}` };
    };
  }

  function toolOf(server: McpServer, definition: McpToolDefinition, wireName: string, connection: ServerConnection): SourceTool {
    return {
      wireName,
      server: server.name,
      description: definition.description ?? `The tool '${definition.name}' of ${server.name}.`,
      inputSchema: definition.inputSchema,
      timeoutMs: server.timeoutMs,
      execute: async (input, signal) => {
        let result: unknown;
        try {
          const args = (input ?? {}) as Record<string, unknown>;
          result = await connection.client.callTool({ name: definition.name, arguments: args }, undefined, { signal, timeout: server.timeoutMs });
          // The SDK checks this only on a turn whose client listed the tools itself, not on one that used the cache.
          if (definition.outputSchema !== undefined) checkStructuredContent(result, validators.getValidator(definition.outputSchema), definition.name);
        } catch (error) {
          if (signal.aborted) throw error;
          options.onError?.(error, { server: server.name, tool: wireName });
          throw new ChatwireError('UNAVAILABLE', `${wireName}: the MCP server failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        return callToolOutput(result, wireName);
      },
    };
  }

  function offer(server: McpServer, listed: McpToolDefinition[], connection: ServerConnection) {
    const tools: SourceTool[] = [];
    const problems: Problem[] = [];
    const leaveOut = (tool: string, message: string) => problems.push({ server: server.name, tool, error: new ChatwireError('CONFLICT', `${tool}: ${message}`) });
    for (const definition of listed) {
      if (server.tools !== null && !server.tools.has(definition.name)) continue;
      const wireName = wireNameOf(server, definition.name);
      if (wireName.length > 64) leaveOut(wireName, 'left out: longer than the 64 characters providers accept');
      else if (tools.some((tool) => tool.wireName === wireName)) leaveOut(wireName, `left out: another tool of ${server.name} has the same name`);
      else if (pins.check(server.name, wireName, definition) !== null) {
        leaveOut(wireName, 'left out: its name, description or input schema changed since it was first seen; the operator must accept the change');
      } else tools.push(toolOf(server, definition, wireName, connection));
    }
    return { tools, problems };
  }

  async function openServer(server: McpServer, caller: Caller, signal: AbortSignal): Promise<OpenedSource> {
    let connection: ServerConnection | undefined;
    try {
      connection = await connectMcpServer(server, identity(caller, server), validators, signal);
      const key = `${server.name}\u0000${caller.userId}`;
      let listed = lists.get(key);
      if (listed === undefined) lists.set(key, (listed = await listMcpTools(server, connection.client, signal)));
      return { ...offer(server, listed, connection), close: connection.close };
    } catch (error) {
      await connection?.close();
      // A turn that ended while its servers were being opened is no fault of theirs.
      if (signal.aborted) return { tools: [], problems: [], close: NO_CLOSE };
      const reason = error instanceof Error ? error.message : String(error);
      const unavailable = new ChatwireError('UNAVAILABLE', `MCP server '${server.name}' is left out of this turn: ${reason}`, { cause: error });
      return { tools: [], problems: [{ server: server.name, error: unavailable }], close: NO_CLOSE };
    }
  }

  return {
    servers,
    namespaces: servers.map((server) => ({ server: server.name, prefix: server.prefix })),
    acceptChangedTool: (wireName) => pins.acceptChanged(wireName),
    async open(caller, signal) {
      const opened = await Promise.all(servers.map((server) => openServer(server, caller, signal)));
      return {
        tools: opened.flatMap((server) => server.tools),
        problems: opened.flatMap((server) => server.problems),
        close: async () => {
          await Promise.all(opened.map((server) => server.close()));
        },
      };
    },
  };
}
