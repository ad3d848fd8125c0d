/**
 * The cost of an MCP tool call over the same tool in-process. One `echo` tool, both ways through chatwire's
 * catalog (deadline, result cap): as a custom tool, and as an MCP server's tool (the official SDK's
 * `McpServer` on Streamable HTTP, a loopback port, in this process) through one turn's client. Interleaved
 * rounds, p50 of each; the server's own time in its handler is measured and taken off. Goal: at most 1 ms
 * p50 on loopback beyond the server's own time. A bare SDK client calling the same server in the same rounds
 * splits that figure into the protocol's own cost and what chatwire adds to it. Also priced: opening one turn's MCP client (connect,
 * initialize, cached list) and closing it. Server and client share this process's one event loop, so the
 * figure includes both sides' SDK work (an upper bound for a server elsewhere).
 * `--quick`: 300 calls and 30 opens instead of 3000 and 200.
 */
import { createToolCatalog } from '@chatwire/core';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { z } from 'zod';
import { mcpToolSource } from '../packages/mcp/src/index.js';
import { connectBareClient, startMcpServer } from '../packages/mcp/src/test-support/start-mcp-server.js';
import type { BenchRow } from './bench-row.js';
import { sized } from './support/quick.js';
import { median } from './support/stats.js';

const CALLS = sized(3_000, 300);
const OPENS = sized(200, 30);
const INPUT = { text: 'hello from the bench', n: 42 };
const echo = async (input: { text: string; n: number }) => ({ text: input.text, n: input.n, at: 'echo' });

export default async function mcpToolCallBench(): Promise<BenchRow[]> {
  const serverTimes: number[] = [];
  const server = await startMcpServer((mcp) => {
    mcp.registerTool('echo', { description: 'Echoes its input.', inputSchema: { text: z.string(), n: z.number() } }, async (input) => {
      const start = performance.now();
      const output = await echo(input);
      serverTimes.push(performance.now() - start);
      return { content: [], structuredContent: output };
    });
  });
  try {
    const caller = { userId: 'bench-user' };
    const records = createRecordStore({ driver: createMemoryDriver() }).asCaller(caller);
    const source = mcpToolSource({ servers: [{ name: 'bench', url: server.url }], signingKey: { secret: 'bench-mcp-signing-secret-of-32-bytes-at-least' } });
    const catalog = createToolCatalog({
      allow: ['mcp_bench_*'],
      custom: { echo: { description: 'Echoes its input.', inputSchema: z.object({ text: z.string(), n: z.number() }), execute: echo } },
      sources: [source],
    });
    const controller = new AbortController();
    const turn = await catalog.openTurn!({ caller, records, abortSignal: controller.signal });
    const call = (name: string) => turn.tools[name]!.execute!(INPUT, { toolCallId: 'bench', messages: [] }) as Promise<unknown>;
    const bare = await connectBareClient(server.url);
    const inProcess: number[] = [];
    const overMcp: number[] = [];
    const overBareSdk: number[] = [];
    for (let i = 0; i < 50; i++) await Promise.all([call('echo'), call('mcp_bench_echo'), bare.call('echo', INPUT)]);
    serverTimes.length = 0;
    for (let i = 0; i < CALLS; i++) {
      let start = performance.now();
      await call('echo');
      inProcess.push(performance.now() - start);
      start = performance.now();
      await call('mcp_bench_echo');
      overMcp.push(performance.now() - start);
      start = performance.now();
      await bare.call('echo', INPUT);
      overBareSdk.push(performance.now() - start);
    }
    await Promise.all([turn.close(), bare.close()]);

    const opens: number[] = [];
    for (let i = 0; i < OPENS; i++) {
      const start = performance.now();
      const opened = await catalog.openTurn!({ caller, records, abortSignal: controller.signal });
      await opened.close();
      opens.push(performance.now() - start);
    }
    const overhead = median(overMcp) - median(inProcess) - median(serverTimes);
    return [
      { group: 'mcp', name: `tool call in-process (custom tool through the catalog), p50 of ${CALLS}`, value: median(inProcess), unit: 'ms' },
      { group: 'mcp', name: `same tool over MCP (Streamable HTTP, loopback, one turn's client), p50 of ${CALLS}`, value: median(overMcp), unit: 'ms' },
      {
        group: 'mcp',
        name: `same call from a bare SDK client (no chatwire), p50 of ${CALLS}`,
        value: median(overBareSdk),
        unit: 'ms',
        ratio: { value: median(overMcp) / median(overBareSdk), against: 'chatwire over MCP / bare SDK' },
      },
      {
        group: 'mcp',
        name: "MCP call overhead: p50 over MCP - p50 in-process - p50 of the server's own time",
        value: overhead,
        unit: 'ms',
        goal: '<= 1 ms',
        met: overhead <= 1,
        note: `server's own time p50 ${median(serverTimes).toPrecision(3)} ms; chatwire over the bare SDK client: ${(median(overMcp) - median(overBareSdk)).toPrecision(3)} ms`,
      },
      { group: 'mcp', name: `open + close one turn's MCP client (connect, initialize, cached list, DELETE), p50 of ${OPENS}`, value: median(opens), unit: 'ms' },
    ];
  } finally {
    await server.down();
  }
}
