import { ChatwireError } from '@chatwire/storage';

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServer {
  /** Names its tools: `mcp_<name>_<tool>`. Letters, digits, `_` and `-`. */
  name: string;
  /** The server's Streamable HTTP endpoint (`http:` or `https:`). */
  url: string;
  /** The server's own tool names to offer (default: all it lists). */
  tools?: readonly string[];
  /** How long one tool call may run, in ms (default 30 000). */
  timeoutMs?: number;
  /** How long connecting and listing its tools may take each turn, in ms (default 10 000). */
  connectTimeoutMs?: number;
  /** The `aud` of the token chatwire signs for it (default: `url`). */
  audience?: string;
}

/** An MCP server chatwire starts as a child process for each turn and talks to over stdio (from code only). */
export interface McpStdioServer {
  name: string;
  command: string;
  args?: readonly string[];
  /** The child's whole environment (default: the SDK's safe minimum, never this process's secrets). */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  tools?: readonly string[];
  timeoutMs?: number;
  connectTimeoutMs?: number;
}

export type McpServerConfig = McpHttpServer | McpStdioServer;

/** A checked server with every default filled in. */
export type McpServer = (
  | { kind: 'http'; url: URL; audience: string }
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> | undefined; cwd: string | undefined }
) & { name: string; prefix: string; tools: ReadonlySet<string> | null; timeoutMs: number; connectTimeoutMs: number };

export const DEFAULT_MCP_CALL_TIMEOUT_MS = 30_000;
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 10_000;
const NAME = /^[a-zA-Z0-9_-]+$/;
const HTTP_KEYS = new Set(['name', 'url', 'tools', 'timeoutMs', 'connectTimeoutMs', 'audience']);
const STDIO_KEYS = new Set(['name', 'command', 'args', 'env', 'cwd', 'tools', 'timeoutMs', 'connectTimeoutMs']);

/**
 * Checks the server list at start-up: an unknown key, a bad name or URL, a duplicate name or a bad timeout is
 * a CONFIGURATION error naming the server and the field. `allowStdio` is false for the environment: a server
 * that runs a command only ever comes from code.
 */
export function checkMcpServers(value: unknown, origin: string, allowStdio: boolean): McpServer[] {
  const fail = (message: string): never => {
    throw new ChatwireError('CONFIGURATION', `${origin}: ${message}`);
  };
  if (!Array.isArray(value)) fail('must be an array of servers ({ name, url, ... })');
  const seen = new Set<string>();
  return (value as unknown[]).map((entry, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail(`server #${index + 1} must be an object`);
    const raw = entry as Record<string, unknown>;
    const name = raw.name;
    if (typeof name !== 'string' || !NAME.test(name)) return fail(`server #${index + 1} needs a name of letters, digits, '_' or '-'`);
    const where = `server '${name}'`;
    if (seen.has(name)) fail(`two servers are named '${name}'`);
    seen.add(name);
    const stdio = raw.command !== undefined;
    if (stdio && !allowStdio) fail(`${where}: 'command' (a stdio server) can only be configured in code, never from the environment`);
    const known = stdio ? STDIO_KEYS : HTTP_KEYS;
    const unknown = Object.keys(raw).filter((key) => !known.has(key));
    if (unknown.length > 0) fail(`${where}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `'${key}'`).join(', ')}; known: ${[...known].join(', ')}`);
    const prefix = `mcp_${name}_`;
    if (prefix.length >= 64) fail(`${where}: the name is too long to leave room for tool names (at most 63 characters with 'mcp_' and '_')`);
    const common = {
      name,
      prefix,
      tools: toolList(raw.tools, where, fail),
      timeoutMs: milliseconds(raw.timeoutMs, DEFAULT_MCP_CALL_TIMEOUT_MS, `${where}: timeoutMs`, fail),
      connectTimeoutMs: milliseconds(raw.connectTimeoutMs, DEFAULT_MCP_CONNECT_TIMEOUT_MS, `${where}: connectTimeoutMs`, fail),
    };
    if (stdio) return { ...common, ...stdioParts(raw, where, fail) };
    const url = httpUrl(raw.url, where, fail);
    if (raw.audience !== undefined && (typeof raw.audience !== 'string' || raw.audience === '')) fail(`${where}: audience must be a non-empty string`);
    return { ...common, kind: 'http' as const, url, audience: (raw.audience as string | undefined) ?? raw.url as string };
  });
}

function httpUrl(value: unknown, where: string, fail: (message: string) => never): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return fail(`${where}: url must be an http(s) URL of its Streamable HTTP endpoint, got ${JSON.stringify(value)}`);
  }
  return url;
}

function toolList(value: unknown, where: string, fail: (message: string) => never): ReadonlySet<string> | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.some((tool) => typeof tool !== 'string' || tool === '')) fail(`${where}: tools must be an array of the server's tool names`);
  return new Set(value as string[]);
}

function milliseconds(value: unknown, fallback: number, what: string, fail: (message: string) => never): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2 ** 31 - 1) fail(`${what} must be a positive integer of milliseconds`);
  return value as number;
}

function stdioParts(raw: Record<string, unknown>, where: string, fail: (message: string) => never) {
  const { command, args, env, cwd } = raw;
  if (typeof command !== 'string' || command === '') fail(`${where}: command must be a non-empty string`);
  if (args !== undefined && (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string'))) fail(`${where}: args must be an array of strings`);
  if (env !== undefined && (typeof env !== 'object' || env === null || Object.values(env).some((v) => typeof v !== 'string'))) {
    fail(`${where}: env must map names to strings`);
  }
  if (cwd !== undefined && typeof cwd !== 'string') fail(`${where}: cwd must be a string`);
  return {
    kind: 'stdio' as const,
    command: command as string,
    args: [...((args as string[] | undefined) ?? [])],
    env: env as Record<string, string> | undefined,
    cwd: cwd as string | undefined,
  };
}
