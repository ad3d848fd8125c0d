import { describe, expect, it } from 'vitest';
import { createExampleApp, ExampleConfigError } from './create-example-app.js';

const quiet = { demoChunkDelayMs: 0, onError: () => undefined };
const MCP_KEY = 'an-mcp-signing-secret-that-is-long-enough-1';

describe('the example reads CHATWIRE_MCP_SERVERS', () => {
  it('offers the configured servers and says so at start-up', async () => {
    const servers = JSON.stringify([{ name: 'crm', url: 'http://127.0.0.1:9/mcp', connectTimeoutMs: 500 }]);
    const example = await createExampleApp({ CHATWIRE_MCP_SERVERS: servers, CHATWIRE_MCP_JWT_SECRET: MCP_KEY }, quiet);
    try {
      expect(example.notices).toContain('MCP servers (CHATWIRE_MCP_SERVERS): crm');
    } finally {
      await example.close();
    }
  });

  it('refuses a mistake in it at start-up', async () => {
    const servers = JSON.stringify([{ name: 'crm', url: 'not a url' }]);
    await expect(createExampleApp({ CHATWIRE_MCP_SERVERS: servers, CHATWIRE_MCP_JWT_SECRET: MCP_KEY }, quiet)).rejects.toThrow(ExampleConfigError);
    await expect(createExampleApp({ CHATWIRE_MCP_SERVERS: servers, CHATWIRE_MCP_JWT_SECRET: MCP_KEY }, quiet)).rejects.toThrow(/url must be an http\(s\) URL/);
  });
});
