import { ChatwireError } from '@chatwire/storage';
import type { McpSigningKey } from './caller-token-signer.js';
import { checkMcpServers } from './mcp-server-config.js';
import { mcpToolSource, type McpToolSource, type McpToolSourceOptions } from './mcp-tool-source.js';

const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'] as const;

function fail(message: string): never {
  throw new ChatwireError('CONFIGURATION', message);
}

function signingKeyFromEnv(env: Readonly<Record<string, string | undefined>>): McpSigningKey {
  const secret = env.CHATWIRE_MCP_JWT_SECRET;
  const privateKey = env.CHATWIRE_MCP_JWT_PRIVATE_KEY;
  if (secret && privateKey) fail('CHATWIRE_MCP_JWT_SECRET and CHATWIRE_MCP_JWT_PRIVATE_KEY are both set: choose one');
  if (secret) {
    if (secret === env.CHATWIRE_JWT_SECRET) fail('CHATWIRE_MCP_JWT_SECRET must differ from CHATWIRE_JWT_SECRET: a server holding it could sign in as any user');
    return { secret };
  }
  if (privateKey) {
    const algorithm = env.CHATWIRE_MCP_JWT_ALG || 'RS256';
    if (!(ALGORITHMS as readonly string[]).includes(algorithm)) fail(`CHATWIRE_MCP_JWT_ALG must be one of ${ALGORITHMS.join(', ')}, got '${algorithm}'`);
    const keyId = env.CHATWIRE_MCP_JWT_KID || undefined;
    return { privateKey: privateKey.replaceAll('\\n', '\n'), algorithm: algorithm as (typeof ALGORITHMS)[number], ...(keyId ? { keyId } : {}) };
  }
  return fail('CHATWIRE_MCP_SERVERS needs CHATWIRE_MCP_JWT_SECRET (HS256) or CHATWIRE_MCP_JWT_PRIVATE_KEY to sign the callers\' identity');
}

/**
 * The MCP servers of `CHATWIRE_MCP_SERVERS` (a JSON array of `{ name, url, tools?, timeoutMs?,
 * connectTimeoutMs?, audience? }`, Streamable HTTP only) with the signing key of `CHATWIRE_MCP_JWT_SECRET`
 * or `CHATWIRE_MCP_JWT_PRIVATE_KEY` (+ `CHATWIRE_MCP_JWT_ALG`, `CHATWIRE_MCP_JWT_KID`), and the issuer of
 * `CHATWIRE_MCP_JWT_ISSUER`. Null when no server is configured; any mistake is a CONFIGURATION error.
 */
export function mcpToolSourceFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
  options: Omit<McpToolSourceOptions, 'servers' | 'signingKey' | 'issuer'> = {},
): McpToolSource | null {
  const text = env.CHATWIRE_MCP_SERVERS?.trim();
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`CHATWIRE_MCP_SERVERS is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  // Checked here first so that a stdio server in the environment names the variable.
  checkMcpServers(value, 'CHATWIRE_MCP_SERVERS', false);
  return mcpToolSource({
    ...options,
    servers: value as McpToolSourceOptions['servers'],
    signingKey: signingKeyFromEnv(env),
    ...(env.CHATWIRE_MCP_JWT_ISSUER ? { issuer: env.CHATWIRE_MCP_JWT_ISSUER } : {}),
  });
}
