import { textStep, toolStep } from '@chatwire/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpToolSource } from './mcp-tool-source.js';
import { OutputSchemaValidators } from './output-schema-validators.js';
import { MCP_SECRET, mcpChatFixture } from './test-support/mcp-chat-fixture.js';
import { startMcpServer, type TestMcpServer } from './test-support/start-mcp-server.js';

const servers: TestMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.down()));
});

/** A `stock` tool whose output schema says `count` is a number, or (`asText`) a string it then returns. */
function stock(asText: boolean) {
  return (mcp: Parameters<Parameters<typeof startMcpServer>[0]>[0]) => {
    const outputSchema = { item: z.string(), count: asText ? z.string() : z.number() };
    mcp.registerTool('stock', { description: 'Counts an item in stock.', inputSchema: { item: z.string() }, outputSchema }, async ({ item }) => {
      const structuredContent = { item, count: asText ? 'three' : 3 };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    });
  };
}

describe('output schemas', () => {
  it('a result that breaks the listed output schema is an error the model sees, on a turn whose list came from the cache too', async () => {
    const server = await startMcpServer(stock(false));
    servers.push(server);
    const errors: unknown[] = [];
    const source = mcpToolSource({ servers: [{ name: 'shop', url: server.url }], signingKey: { secret: MCP_SECRET }, listCacheMs: 60_000, onError: (error) => errors.push(error) });
    const call = toolStep('mcp_shop_stock', { item: 'bolts' });
    const f = mcpChatFixture([call, textStep('3 bolts'), call, textStep('no idea')], [source]);
    const first = await f.turn('how many bolts?');
    expect(first.chunks.find((c) => c.type === 'tool-output-available')).toMatchObject({ output: { item: 'bolts', count: 3 } });

    // The server now answers a text count (valid for its new schema); chatwire still holds the listed schema.
    server.define(stock(true));
    const second = await f.turn('and now?', 'alice', first.chatId);
    expect(server.received.filter((request) => request.body.includes('"tools/list"'))).toHaveLength(1);
    expect(second.chunks.find((c) => c.type === 'tool-output-available')).toBeUndefined();
    expect(second.chunks.find((c) => c.type === 'tool-output-error')).toMatchObject({
      errorText: expect.stringMatching(/^mcp_shop_stock: the MCP server failed: Structured content does not match the tool's output schema: .*count/),
    });
    expect(errors).toHaveLength(1);
    expect(second.done).toBe(true);
  });

  it('compiles each distinct schema once, whatever object carries it', () => {
    const validators = new OutputSchemaValidators();
    const schema = () => ({ type: 'object', properties: { count: { type: 'number' } }, required: ['count'] });
    const validate = validators.getValidator(schema());
    expect(validators.getValidator(schema())).toBe(validate);
    expect(validate({ count: 3 }).valid).toBe(true);
    expect(validate({ count: 'three' })).toMatchObject({ valid: false, errorMessage: expect.stringContaining('count') });
  });
});
