import { fileURLToPath } from 'node:url';
import { textStep, toolStep } from '@chatwire/core/testing';
import { describe, expect, it } from 'vitest';
import { mcpToolSource } from './mcp-tool-source.js';
import { mcpChatFixture } from './test-support/mcp-chat-fixture.js';

const script = fileURLToPath(new URL('./test-support/stdio-mcp-server.mjs', import.meta.url));

describe('a stdio MCP server (from code only)', () => {
  it('is started for the turn, its tool called, and it gets nothing of this process\'s environment unless given', async () => {
    process.env.CHATWIRE_TEST_CALLER_TOKEN = 'a-secret-of-this-process';
    try {
      const source = mcpToolSource({ servers: [{ name: 'local', command: process.execPath, args: [script] }] });
      const f = mcpChatFixture([toolStep('mcp_local_whoami', { greeting: 'hello' }), textStep('ok')], [source]);
      const { chunks, done } = await f.turn();
      expect(done).toBe(true);
      const output = chunks.find((c) => c.type === 'tool-output-available') as { output: string };
      expect(output.output).toMatch(/^hello from pid \d+; env token: none$/);
      expect(f.errors).toEqual([]);
    } finally {
      delete process.env.CHATWIRE_TEST_CALLER_TOKEN;
    }
  });
});
