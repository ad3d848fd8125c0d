import { textStep } from '@chatwire/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpToolSource } from './mcp-tool-source.js';
import { MCP_SECRET, mcpChatFixture } from './test-support/mcp-chat-fixture.js';
import { startMcpServer, startPlainServer, type TestMcpServer } from './test-support/start-mcp-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe('GET /tools', () => {
  it('lists what the caller\'s turns offer, each tool with its source, and the servers left out', async () => {
    const crm: TestMcpServer = await startMcpServer((mcp) => {
      mcp.registerTool('find', { description: 'Finds a customer.', inputSchema: { name: z.string() } }, async () => ({ content: [] }));
    });
    const down = await startPlainServer(() => ({ status: 503 }));
    cleanups.push(() => crm.down(), down.close);
    const source = mcpToolSource({
      servers: [
        { name: 'crm', url: crm.url },
        { name: 'erp', url: down.url },
      ],
      signingKey: { secret: MCP_SECRET },
    });
    const f = mcpChatFixture([textStep('ok')], [source], { allow: ['records.query', 'mcp_crm_*', 'mcp_erp_*'] });
    const response = await f.request('GET', '/tools');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { tools: unknown[]; unavailable: unknown[] };
    expect(body.tools).toEqual([
      { name: 'records_query', description: expect.stringContaining('List records'), source: 'built-in' },
      { name: 'mcp_crm_find', description: 'Finds a customer.', source: 'mcp', server: 'crm' },
    ]);
    expect(body.unavailable).toEqual([{ server: 'erp', message: expect.stringContaining("MCP server 'erp' is left out") }]);
    expect(f.errors).toHaveLength(1);
    // The listing opened the server as the caller and let go of it.
    await expect.poll(() => crm.openSessions()).toBe(0);
    for (const token of f.tokens) expect(JSON.stringify(crm.received)).not.toContain(token);
  });

  it('needs a token', async () => {
    const f = mcpChatFixture([textStep('ok')], []);
    const response = await f.handler(new Request('http://localhost/api/ai/tools'));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });
});
