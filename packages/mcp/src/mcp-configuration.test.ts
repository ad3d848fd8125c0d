import { createToolCatalog } from '@chatwire/core';
import { ChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpToolSourceFromEnv } from './mcp-tool-source-from-env.js';
import { mcpToolSource } from './mcp-tool-source.js';

const KEY = 'mcp-signing-secret-that-is-at-least-32-bytes';

function configurationError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (ChatwireError.is(error, 'CONFIGURATION')) return error.message;
    throw error;
  }
  throw new Error('expected a CONFIGURATION error');
}

const fromEnv = (servers: unknown, extra: Record<string, string> = {}) => () =>
  mcpToolSourceFromEnv({ CHATWIRE_MCP_SERVERS: typeof servers === 'string' ? servers : JSON.stringify(servers), CHATWIRE_MCP_JWT_SECRET: KEY, ...extra });

describe('CHATWIRE_MCP_SERVERS', () => {
  it('reads the servers with their defaults; unset means no MCP source', () => {
    expect(mcpToolSourceFromEnv({})).toBeNull();
    const source = fromEnv([{ name: 'crm', url: 'https://crm.example/mcp', tools: ['find'], timeoutMs: 5_000 }])()!;
    expect(source.servers).toEqual([
      expect.objectContaining({ name: 'crm', kind: 'http', audience: 'https://crm.example/mcp', timeoutMs: 5_000, connectTimeoutMs: 10_000, prefix: 'mcp_crm_' }),
    ]);
    expect(source.namespaces).toEqual([{ server: 'crm', prefix: 'mcp_crm_' }]);
  });

  it.each([
    ['not JSON', '[{name:', /CHATWIRE_MCP_SERVERS is not valid JSON/],
    ['not an array', { name: 'crm' }, /must be an array/],
    ['an invalid URL', [{ name: 'crm', url: 'not a url' }], /server 'crm': url must be an http\(s\) URL/],
    ['a non-HTTP URL', [{ name: 'crm', url: 'file:///etc/passwd' }], /server 'crm': url must be an http\(s\) URL/],
    ['a duplicate name', [{ name: 'crm', url: 'https://a.example/mcp' }, { name: 'crm', url: 'https://b.example/mcp' }], /two servers are named 'crm'/],
    ['an unknown key', [{ name: 'crm', url: 'https://a.example/mcp', timeout: 5 }], /server 'crm': unknown key 'timeout'/],
    ['a bad name', [{ name: 'c r m', url: 'https://a.example/mcp' }], /needs a name of letters/],
    ['a bad timeout', [{ name: 'crm', url: 'https://a.example/mcp', timeoutMs: -1 }], /timeoutMs must be a positive integer/],
    ['a stdio server', [{ name: 'local', command: 'node', args: ['server.js'] }], /'command' \(a stdio server\) can only be configured in code/],
  ])('refuses %s at start-up', (_, servers, message) => {
    expect(configurationError(fromEnv(servers))).toMatch(message);
  });

  it('needs a signing key of its own', () => {
    const servers = JSON.stringify([{ name: 'crm', url: 'https://a.example/mcp' }]);
    expect(configurationError(() => mcpToolSourceFromEnv({ CHATWIRE_MCP_SERVERS: servers }))).toMatch(/needs CHATWIRE_MCP_JWT_SECRET/);
    expect(configurationError(fromEnv([{ name: 'crm', url: 'https://a.example/mcp' }], { CHATWIRE_JWT_SECRET: KEY }))).toMatch(
      /must differ from CHATWIRE_JWT_SECRET/,
    );
  });
});

describe('MCP tools in the catalog at start-up', () => {
  const source = (...names: string[]) =>
    mcpToolSource({ servers: names.map((name) => ({ name, url: `https://${name}.example/mcp` })), signingKey: { secret: KEY } });

  it('a custom tool inside a server namespace fails start-up, naming both', () => {
    const custom = { 'mcp.crm.find': { description: 'Mine.', inputSchema: z.object({}), execute: () => 'x' } };
    expect(configurationError(() => createToolCatalog({ custom, sources: [source('crm')] }))).toMatch(
      /the tool 'mcp_crm_find' clashes with MCP server 'crm'/,
    );
  });

  it('two servers whose tools could share a name fail start-up, naming both', () => {
    expect(configurationError(() => createToolCatalog({ sources: [source('crm', 'crm_eu')] }))).toMatch(/MCP servers 'crm' and 'crm_eu'/);
    expect(configurationError(() => createToolCatalog({ sources: [source('crm'), source('crm_eu')] }))).toMatch(/MCP servers 'crm' and 'crm_eu'/);
  });

  it('the allow-list takes MCP tools by name or server wildcard, and still refuses unknown built-ins', () => {
    expect(createToolCatalog({ allow: ['records.query', 'mcp_crm_find', 'mcp_crm_*'], sources: [source('crm')] }).names).toEqual(['records.query']);
    expect(configurationError(() => createToolCatalog({ allow: ['records.query', 'mcp_erp_find'], sources: [source('crm')] }))).toMatch(
      /allow lists unknown tool 'mcp_erp_find'/,
    );
  });

  it('a server needs a way to say who the caller is, and an allow-listed tool name must fit 64 characters', () => {
    expect(configurationError(() => mcpToolSource({ servers: [{ name: 'crm', url: 'https://crm.example/mcp' }] }))).toMatch(/needs signingKey/);
    expect(
      configurationError(() => mcpToolSource({ servers: [{ name: 'crm', url: 'https://crm.example/mcp', tools: ['x'.repeat(60)] }], signingKey: { secret: KEY } })),
    ).toMatch(/longer than the 64 characters/);
    expect(configurationError(() => mcpToolSource({ servers: [{ name: 'crm', url: 'https://crm.example/mcp' }], signingKey: { secret: 'short' } }))).toMatch(
      /at least 32 bytes/,
    );
  });
});
