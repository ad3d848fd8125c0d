/**
 * The cost of an MCP tool call over the same tool in-process (issue #24; goal: at most 1 ms p50 on loopback
 * beyond the server's own time).
 *
 * What runs: one `echo` tool, both ways through chatwire's tool catalog (deadline, turn signal, result cap):
 * as a custom tool in this process, and as the tool of a real MCP server (the official SDK's `McpServer` on
 * its Streamable HTTP transport, SSE answers, as the SDK serves by default) in a child process of its own
 * on a loopback port, called through one turn's client (chatwire's signed JWT, pinned definitions). The
 * server runs in its own process, as a deployment has it, so this process's figures are the client's side
 * and the wire only.
 *
 * What is measured, in interleaved rounds (one call of each kind per round), p50 of each:
 * - the call in-process, over MCP through chatwire, and from a bare SDK client (no chatwire: the SDK's own
 *   default transport on the global fetch) to the same server;
 * - the server's own time, measured in the server's process: each request from its arrival to the end of
 *   its answer (the SDK's server work and the handler; the handler alone is noted);
 * - the overhead = p50 over MCP - p50 in-process - p50 of the server's own time: chatwire's MCP client
 *   (the SDK's client, its transport, chatwire's wrapper) and the loopback wire, both ways;
 * - the CPU of this process per call (blocks of calls), over MCP and from the bare SDK client;
 * - opening one turn's MCP client (connect, initialize, cached list) and closing it (DELETE).
 * The machine's load shows in the wire's part (the two processes wake each other): report `uptime` with it.
 * `--quick`: 300 calls and 30 opens instead of 3000 and 200.
 */
import { createToolCatalog } from '@chatwire/core';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { z } from 'zod';
import { mcpToolSource } from '../packages/mcp/src/index.js';
import { forkEchoMcpServer } from '../packages/mcp/src/test-support/fork-echo-mcp-server.js';
import { connectBareClient } from '../packages/mcp/src/test-support/start-mcp-server.js';
import type { BenchRow } from './bench-row.js';
import { sized } from './support/quick.js';
import { median } from './support/stats.js';

const CALLS = sized(3_000, 300);
const OPENS = sized(200, 30);
const CPU_BLOCK = 100;
const INPUT = { text: 'hello from the bench', n: 42 };
const echo = async (input: { text: string; n: number }) => ({ text: input.text, n: input.n, at: 'echo' });

/** This process's CPU per call of `call`, in ms, over `count` calls. */
async function cpuPerCall(count: number, call: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await call();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / count;
}

export default async function mcpToolCallBench(): Promise<BenchRow[]> {
  const server = await forkEchoMcpServer();
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
    const call = (name: string) => () => turn.tools[name]!.execute!(INPUT, { toolCallId: 'bench', messages: [] }) as Promise<unknown>;
    const bare = await connectBareClient(server.url);
    const kinds = { inProcess: call('echo'), overMcp: call('mcp_bench_echo'), bareSdk: () => bare.call('echo', INPUT) };
    const times = { inProcess: [] as number[], overMcp: [] as number[], bareSdk: [] as number[] };
    for (let i = 0; i < 50; i++) for (const run of Object.values(kinds)) await run();
    await server.times();
    for (let i = 0; i < CALLS; i++) {
      for (const [kind, run] of Object.entries(kinds) as [keyof typeof kinds, () => Promise<unknown>][]) {
        const start = performance.now();
        await run();
        times[kind].push(performance.now() - start);
      }
    }
    const { handler, served } = await server.times();
    const cpu = { overMcp: [] as number[], bareSdk: [] as number[] };
    for (let block = 0; block < Math.max(3, CALLS / 500); block++) {
      cpu.overMcp.push(await cpuPerCall(CPU_BLOCK, kinds.overMcp));
      cpu.bareSdk.push(await cpuPerCall(CPU_BLOCK, kinds.bareSdk));
    }
    await Promise.all([turn.close(), bare.close()]);

    const opens: number[] = [];
    for (let i = 0; i < OPENS; i++) {
      const start = performance.now();
      const opened = await catalog.openTurn!({ caller, records, abortSignal: controller.signal });
      await opened.close();
      opens.push(performance.now() - start);
    }
    const p50 = { inProcess: median(times.inProcess), overMcp: median(times.overMcp), bareSdk: median(times.bareSdk), served: median(served) };
    const overhead = p50.overMcp - p50.inProcess - p50.served;
    return [
      { group: 'mcp', name: `tool call in-process (custom tool through the catalog), p50 of ${CALLS}`, value: p50.inProcess, unit: 'ms' },
      { group: 'mcp', name: `same tool over MCP (server in a child process, Streamable HTTP + SSE, loopback; one turn's client), p50 of ${CALLS}`, value: p50.overMcp, unit: 'ms' },
      {
        group: 'mcp',
        name: `same call from a bare SDK client (no chatwire, the SDK's default transport on the global fetch), p50 of ${CALLS}`,
        value: p50.bareSdk,
        unit: 'ms',
        ratio: { value: p50.overMcp / p50.bareSdk, against: 'chatwire over MCP / bare SDK' },
      },
      {
        group: 'mcp',
        name: "the server's own time per request (arrival to end of answer, in its process), p50",
        value: p50.served,
        unit: 'ms',
        note: `its echo handler alone: p50 ${median(handler).toPrecision(3)} ms`,
      },
      {
        group: 'mcp',
        name: "MCP call overhead: p50 over MCP - p50 in-process - p50 of the server's own time (client side + wire)",
        value: overhead,
        unit: 'ms',
        goal: '<= 1 ms',
        met: overhead <= 1,
        note: `chatwire over the bare SDK client: ${(p50.overMcp - p50.bareSdk).toPrecision(3)} ms`,
      },
      {
        group: 'mcp',
        name: `CPU of the client's process per MCP call, chatwire (p50 of blocks of ${CPU_BLOCK})`,
        value: median(cpu.overMcp),
        unit: 'ms',
        ratio: { value: median(cpu.overMcp) / median(cpu.bareSdk), against: 'bare SDK client' },
      },
      { group: 'mcp', name: `open + close one turn's MCP client (connect, initialize, cached list, DELETE), p50 of ${OPENS}`, value: median(opens), unit: 'ms' },
    ];
  } finally {
    await server.down();
  }
}
