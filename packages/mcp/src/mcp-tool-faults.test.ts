import { textStep, toolStep } from '@chatwire/core/testing';
import { ChatwireError } from '@chatwire/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpToolSource } from './mcp-tool-source.js';
import { MCP_SECRET, mcpChatFixture, type McpChatFixture } from './test-support/mcp-chat-fixture.js';
import { startMcpServer, startPlainServer } from './test-support/start-mcp-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const signingKey = { secret: MCP_SECRET };
const hangs = new Set<string>();

async function faultyServer() {
  const server = await startMcpServer((mcp) => {
    mcp.registerTool('hang', { description: 'Never answers and ignores cancellation.', inputSchema: {} }, async () => {
      hangs.add('started');
      return new Promise<never>(() => undefined);
    });
    mcp.registerTool('fail', { description: 'Throws.', inputSchema: {} }, async () => {
      throw new Error('the ticket tracker is read-only today');
    });
    mcp.registerTool('big', { description: 'A huge answer.', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'x'.repeat(100_000) }] }));
    mcp.registerTool('malformed', { description: 'Not a CallToolResult.', inputSchema: {} }, async () => ({ content: 'not a list' }) as never);
    mcp.registerTool('crash', { description: 'Takes the server down.', inputSchema: {} }, async () => {
      await server.down();
      return { content: [] };
    });
    mcp.registerTool('echo', { description: 'Echoes.', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  });
  cleanups.push(() => server.down().catch(() => undefined));
  return server;
}

/** The chat is free: another turn of it runs to its end at once. */
async function expectChatFree(f: McpChatFixture, chatId: string) {
  const next = await f.turn('again', 'alice', chatId);
  expect(next.done).toBe(true);
  expect(next.chunks.find((c) => c.type === 'error')).toBeUndefined();
}

function textOf(chunks: Record<string, unknown>[]): string {
  return chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('');
}

function toolOutputError(chunks: Record<string, unknown>[]) {
  return chunks.find((c) => c.type === 'tool-output-error') as { toolCallId: string; errorText: string } | undefined;
}

describe('every MCP call ends', () => {
  it('a tool that hangs and ignores cancellation fails at chatwire\'s deadline; the loop goes on', async () => {
    const server = await faultyServer();
    const source = mcpToolSource({ servers: [{ name: 'ops', url: server.url, timeoutMs: 300 }], signingKey });
    const f = mcpChatFixture([toolStep('mcp_ops_hang', {}), textStep('It timed out.')], [source]);
    const { chatId, chunks, done } = await f.turn();
    expect(hangs.has('started')).toBe(true);
    expect(toolOutputError(chunks)).toMatchObject({ toolCallId: 'call-1', errorText: 'mcp_ops_hang: did not finish within 300 ms' });
    expect(textOf(chunks)).toBe('It timed out.');
    expect(done).toBe(true);
    await expectChatFree(f, chatId);
  });

  it('an MCP error, a malformed result and an oversized one reach the model; the turn completes', async () => {
    const server = await faultyServer();
    const source = mcpToolSource({ servers: [{ name: 'ops', url: server.url }], signingKey });
    const steps = [toolStep('mcp_ops_fail', {}, 'c1'), toolStep('mcp_ops_malformed', {}, 'c2'), toolStep('mcp_ops_big', {}, 'c3'), textStep('done')];
    const f = mcpChatFixture(steps, [source]);
    const { chunks, done } = await f.turn();
    const errors = chunks.filter((c) => c.type === 'tool-output-error') as { toolCallId: string; errorText: string }[];
    expect(errors.map((e) => e.toolCallId)).toEqual(['c1', 'c2']);
    expect(errors[0]!.errorText).toContain('the ticket tracker is read-only today');
    expect(errors[1]!.errorText).toMatch(/^mcp_ops_malformed: the MCP server failed/);
    const big = chunks.find((c) => c.type === 'tool-output-available' && c.toolCallId === 'c3') as { output: string };
    expect(Buffer.byteLength(big.output)).toBeLessThanOrEqual(30_000);
    expect(big.output.slice(-250)).toMatch(/\[chatwire: result cut to fit 30000 bytes: showing the first \d+ of 100000 bytes/);
    expect(done).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
  });

  it('a server that goes down mid-turn fails that call; the next turn leaves it out and records why', async () => {
    const server = await faultyServer();
    const source = mcpToolSource({ servers: [{ name: 'ops', url: server.url, connectTimeoutMs: 2_000 }], signingKey });
    const f = mcpChatFixture([toolStep('mcp_ops_crash', {}), textStep('The server is gone.')], [source]);
    const first = await f.turn();
    expect(toolOutputError(first.chunks)?.errorText).toMatch(/^mcp_ops_crash: the MCP server failed/);
    expect(first.done).toBe(true);

    const second = await f.turn('again', 'alice', first.chatId);
    expect(second.done).toBe(true);
    // Its tools were offered in the first turn's calls, not in the second's.
    expect(f.offered().map((names) => names.includes('mcp_ops_crash'))).toEqual([true, true, false]);
    const rows = await f.turnRows();
    expect(rows.find((row) => row.toolSourceErrors !== undefined)).toMatchObject({
      toolSourceErrors: [{ server: 'ops', message: expect.stringContaining("MCP server 'ops' is left out of this turn") }],
    });
    expect(f.errors.some((error) => ChatwireError.is(error, 'UNAVAILABLE'))).toBe(true);
  });

  it('a server that never answers is left out after connectTimeoutMs; the turn runs without it', async () => {
    const silent = await startPlainServer(null);
    cleanups.push(silent.close);
    const source = mcpToolSource({ servers: [{ name: 'silent', url: silent.url, connectTimeoutMs: 300 }], signingKey });
    const f = mcpChatFixture([textStep('Answered without it.')], [source]);
    const { chatId, chunks, done } = await f.turn();
    expect(done).toBe(true);
    expect(textOf(chunks)).toBe('Answered without it.');
    const [row] = await f.turnRows();
    expect(row!.toolSourceErrors).toEqual([{ server: 'silent', message: expect.stringMatching(/took longer than 300 ms/) }]);
    await expectChatFree(f, chatId);
  });

  it('a redirect to another origin is not followed: the token never leaves the configured server', async () => {
    const elsewhere = await startPlainServer(() => ({ status: 200 }));
    const redirecting = await startPlainServer(() => ({ status: 307, headers: { location: elsewhere.url } }));
    cleanups.push(elsewhere.close, redirecting.close);
    const source = mcpToolSource({ servers: [{ name: 'moved', url: redirecting.url }], signingKey });
    const f = mcpChatFixture([textStep('ok')], [source]);
    const { done } = await f.turn();
    expect(done).toBe(true);
    expect(redirecting.received.length).toBeGreaterThan(0);
    expect(elsewhere.received).toEqual([]);
    const [row] = await f.turnRows();
    expect(row!.toolSourceErrors).toEqual([{ server: 'moved', message: expect.stringContaining('left out of this turn') }]);
  });

  it('a turn stopped while a call hangs ends at once, and its session with the server is closed', async () => {
    const server = await faultyServer();
    hangs.clear();
    const source = mcpToolSource({ servers: [{ name: 'ops', url: server.url, timeoutMs: 60_000 }], signingKey });
    const f = mcpChatFixture([toolStep('mcp_ops_hang', {}), textStep('never')], [source]);
    const chatId = ((await (await f.request('POST', '/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
    const response = await f.request('POST', '/chat', { chatId, userMessageId: 'stopped-1', content: 'go' });
    const body = response.text();
    await expect.poll(() => hangs.has('started')).toBe(true);
    expect(server.openSessions()).toBe(1);
    expect(await (await f.request('POST', `/chats/${chatId}/stop`)).json()).toEqual({ stopped: true });
    expect(await body).toMatch(/data: \[DONE\]\n\n$/);
    await expect.poll(() => server.openSessions()).toBe(0);
    await expectChatFree(f, chatId);
  });
});
