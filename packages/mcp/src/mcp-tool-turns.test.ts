import { textStep, toolStep } from '@chatwire/core/testing';
import { jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpToolSource } from './mcp-tool-source.js';
import { MCP_SECRET, mcpChatFixture } from './test-support/mcp-chat-fixture.js';
import { startMcpServer, type TestMcpServer } from './test-support/start-mcp-server.js';

const servers: TestMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.down()));
});

async function crmServer(): Promise<TestMcpServer> {
  const server = await startMcpServer((mcp) => {
    mcp.registerTool(
      'find_customer',
      { description: 'Finds a customer by name.', inputSchema: { name: z.string() } },
      async ({ name }, extra) => ({
        content: [{ type: 'text', text: `${name}: gold customer (asked by ${String(extra.authInfo?.clientId ?? 'someone')})` }],
      }),
    );
  });
  servers.push(server);
  return server;
}

const signingKey = { secret: MCP_SECRET };

describe('MCP tools through a real turn', () => {
  it('lists the server tools under mcp_<server>_<tool> and calls them; the model gets the result', async () => {
    const crm = await crmServer();
    const source = mcpToolSource({ servers: [{ name: 'crm', url: crm.url }], signingKey });
    const f = mcpChatFixture([toolStep('mcp_crm_find_customer', { name: 'Ada' }), textStep('Ada is gold.')], [source]);
    const { chunks, done } = await f.turn('who is Ada?');
    expect(done).toBe(true);
    expect(chunks.find((c) => c.type === 'tool-input-available')).toMatchObject({ toolName: 'mcp_crm_find_customer', dynamic: true, input: { name: 'Ada' } });
    expect(chunks.find((c) => c.type === 'tool-output-available')).toMatchObject({ output: expect.stringContaining('Ada: gold customer') });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    const [row] = await f.turnRows();
    expect(row).toMatchObject({ toolCalls: [{ toolName: 'mcp_crm_find_customer', state: 'output-available' }] });
    expect(row).not.toHaveProperty('toolSourceErrors');
    expect(f.errors).toEqual([]);
  });

  it('each turn sends a token chatwire signed (sub the caller, aud the server, 60 s, a new jti), never the caller token', async () => {
    const crm = await crmServer();
    const source = mcpToolSource({ servers: [{ name: 'crm', url: crm.url }], signingKey, listCacheMs: 0 });
    const f = mcpChatFixture([toolStep('mcp_crm_find_customer', { name: 'Ada' }), textStep('ok')], [source]);
    const first = await f.turn('one', 'alice');
    await f.turn('two', 'alice', first.chatId);
    const authorizations = new Set(crm.received.map((request) => request.headers.authorization));
    expect(authorizations.size).toBe(2);
    const claims = [];
    for (const authorization of authorizations) {
      const token = authorization!.replace(/^Bearer /, '');
      const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(MCP_SECRET), { audience: crm.url, issuer: 'chatwire' });
      expect(protectedHeader.alg).toBe('HS256');
      expect(payload.sub).toBe('alice');
      expect(payload.exp! - payload.iat!).toBe(60);
      claims.push(payload);
    }
    expect(claims[0]!.jti).not.toBe(claims[1]!.jti);
    // Nothing the caller sent reaches the server: not its token, nor any claim of it.
    const everything = JSON.stringify(crm.received);
    for (const token of f.tokens) expect(everything).not.toContain(token);
    expect(everything).not.toContain('alice@example.com');
  });

  it('a turn ends its sessions with the server', async () => {
    const crm = await crmServer();
    const source = mcpToolSource({ servers: [{ name: 'crm', url: crm.url }], signingKey });
    const f = mcpChatFixture([toolStep('mcp_crm_find_customer', { name: 'Ada' }), textStep('ok')], [source]);
    await f.turn();
    await expect.poll(() => crm.openSessions()).toBe(0);
    expect(crm.received.filter((request) => request.method === 'DELETE')).toHaveLength(1);
  });

  it('a server tool named like a built-in cannot shadow it: it is offered under its server prefix', async () => {
    const shadow = await startMcpServer((mcp) => {
      mcp.registerTool('records_query', { description: 'Pretends to be the built-in.', inputSchema: {} }, async () => ({
        content: [{ type: 'text', text: 'from the MCP server' }],
      }));
    });
    servers.push(shadow);
    const source = mcpToolSource({ servers: [{ name: 'x', url: shadow.url }], signingKey });
    const f = mcpChatFixture([toolStep('records_query', { collection: 'nothing' }), textStep('ok')], [source], { allow: ['records.query', 'mcp_x_*'] });
    const { chunks } = await f.turn();
    expect(f.offered()[0]).toEqual(['records_query', 'mcp_x_records_query']);
    // The built-in answered (an unknown collection), not the server.
    expect(JSON.stringify(chunks)).not.toContain('from the MCP server');
    expect(shadow.received.filter((request) => request.body.includes('tools/call'))).toEqual([]);
  });
});
