/**
 * The cost of an MCP tool call over the same tool in-process (issue #24; goal: at most 1 ms p50 on loopback
 * beyond the server's own time).
 *
 * What runs: one `echo` tool, both ways through chatwire's tool catalog (deadline, turn signal, result cap):
 * as a custom tool in this process, and as the tool of a real MCP server (the official SDK's `McpServer` on
 * its Streamable HTTP transport) in a child process of its own on a loopback port, called through one turn's
 * client (chatwire's signed JWT, pinned definitions). Two such servers: one answering each call with an SSE
 * stream (the SDK's default) and one with JSON (`enableJsonResponse`). Each server runs in its own process,
 * as a deployment has it, so this process's figures are the client's side and the wire only.
 *
 * Measured in interleaved rounds (one call of each kind per round), p50 of each:
 * - the call in-process; over MCP through chatwire (SSE server, JSON server); from a bare SDK client (no
 *   chatwire: the SDK's default transport on the global fetch); and the same JSON-RPC `tools/call` as a plain
 *   `node:http` POST on a keep-alive socket (no MCP client at all: the wire's floor), the last two to the SSE
 *   server;
 * - each server's own time, measured in its process: each request from its arrival to the end of its answer
 *   (the SDK's server work and the handler; the handler alone is noted);
 * - the overhead = p50 over MCP - p50 in-process - p50 of the server's own time: the MCP client (the SDK's
 *   client and transport, chatwire's wrapper and fetch) and the loopback wire, both ways. The note splits it:
 *   the wire with a plain HTTP client (plain POST - server's time) and the MCP client on top of it;
 * - this process's CPU per call (blocks of calls) for each way over the wire;
 * - opening one turn's MCP client (connect, initialize, cached list) and closing it (DELETE).
 * The machine's load shows in the wire's part (the two processes wake each other): report `uptime` with it.
 * `--quick`: 300 calls and 15 opens instead of 3000 and 200.
 */
import { request as httpRequest, Agent } from 'node:http';
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
const OPENS = sized(200, 15);
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

/** The `tools/call` of `echo` as a plain `node:http` POST in an open session, its answer read whole. */
function plainPost(url: string, sessionId: string): () => Promise<string> {
  const agent = new Agent({ keepAlive: true });
  let id = 1_000_000;
  return () =>
    new Promise<string>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'echo', arguments: INPUT } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      const req = httpRequest(url, { method: 'POST', agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => void (text += chunk));
        res.once('end', () => resolve(text));
      });
      req.once('error', reject);
      req.end(body);
    });
}

const median3 = (values: number[]) => median(values).toPrecision(3);

export default async function mcpToolCallBench(): Promise<BenchRow[]> {
  const [server, jsonServer] = await Promise.all([forkEchoMcpServer(), forkEchoMcpServer({ json: true })]);
  try {
    const caller = { userId: 'bench-user' };
    const records = createRecordStore({ driver: createMemoryDriver() }).asCaller(caller);
    const signingKey = { secret: 'bench-mcp-signing-secret-of-32-bytes-at-least' };
    const source = mcpToolSource({ servers: [{ name: 'bench', url: server.url }, { name: 'json', url: jsonServer.url }], signingKey });
    const catalog = createToolCatalog({
      allow: ['mcp_bench_*', 'mcp_json_*'],
      custom: { echo: { description: 'Echoes its input.', inputSchema: z.object({ text: z.string(), n: z.number() }), execute: echo } },
      sources: [source],
    });
    const controller = new AbortController();
    const turn = await catalog.openTurn!({ caller, records, abortSignal: controller.signal });
    const call = (name: string) => () => turn.tools[name]!.execute!(INPUT, { toolCallId: 'bench', messages: [] }) as Promise<unknown>;
    const bare = await connectBareClient(server.url);
    const kinds = {
      inProcess: call('echo'),
      overMcp: call('mcp_bench_echo'),
      overMcpJson: call('mcp_json_echo'),
      bareSdk: () => bare.call('echo', INPUT),
      plainPost: plainPost(server.url, bare.sessionId),
    };
    type Kind = keyof typeof kinds;
    const times = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
    for (let i = 0; i < 50; i++) for (const run of Object.values(kinds)) await run();
    await Promise.all([server.times(), jsonServer.times()]);
    for (let i = 0; i < CALLS; i++) {
      for (const [kind, run] of Object.entries(kinds) as [Kind, () => Promise<unknown>][]) {
        const start = performance.now();
        await run();
        times[kind].push(performance.now() - start);
      }
    }
    const [sse, json] = await Promise.all([server.times(), jsonServer.times()]);
    const wire = ['overMcp', 'overMcpJson', 'bareSdk', 'plainPost'] as const;
    const cpu = Object.fromEntries(wire.map((kind) => [kind, [] as number[]])) as Record<(typeof wire)[number], number[]>;
    for (let block = 0; block < Math.max(3, CALLS / 500); block++) {
      for (const kind of wire) cpu[kind].push(await cpuPerCall(CPU_BLOCK, kinds[kind]));
    }
    await Promise.all([turn.close(), bare.close()]);

    const opens: number[] = [];
    for (let i = 0; i < OPENS; i++) {
      const start = performance.now();
      const opened = await catalog.openTurn!({ caller, records, abortSignal: controller.signal });
      await opened.close();
      opens.push(performance.now() - start);
    }
    const p50 = Object.fromEntries(Object.entries(times).map(([kind, values]) => [kind, median(values)])) as Record<Kind, number>;
    const served = { sse: median(sse.served), json: median(json.served) };
    const overhead = p50.overMcp - p50.inProcess - served.sse;
    const overheadJson = p50.overMcpJson - p50.inProcess - served.json;
    const wireFloor = p50.plainPost - served.sse;
    return [
      { group: 'mcp', name: `tool call in-process (custom tool through the catalog), p50 of ${CALLS}`, value: p50.inProcess, unit: 'ms' },
      { group: 'mcp', name: `same tool over MCP through chatwire (server in a child process, SSE answers, loopback), p50 of ${CALLS}`, value: p50.overMcp, unit: 'ms' },
      { group: 'mcp', name: `same tool over MCP through chatwire (server in a child process, JSON answers), p50 of ${CALLS}`, value: p50.overMcpJson, unit: 'ms' },
      {
        group: 'mcp',
        name: `same call from a bare SDK client (no chatwire; the SDK's default transport on the global fetch; SSE server), p50 of ${CALLS}`,
        value: p50.bareSdk,
        unit: 'ms',
        ratio: { value: p50.overMcp / p50.bareSdk, against: 'chatwire over MCP / bare SDK' },
      },
      { group: 'mcp', name: `same tools/call as a plain node:http POST (no MCP client: the wire's floor; SSE server), p50 of ${CALLS}`, value: p50.plainPost, unit: 'ms' },
      {
        group: 'mcp',
        name: "the server's own time per request (arrival to end of answer, in its process), SSE server, p50",
        value: served.sse,
        unit: 'ms',
        note: `JSON server ${served.json.toPrecision(3)} ms; the echo handler alone ${median3(sse.handler)} ms`,
      },
      {
        group: 'mcp',
        name: "MCP call overhead: p50 over MCP - p50 in-process - p50 of the server's own time (client side + wire), SSE server",
        value: overhead,
        unit: 'ms',
        goal: '<= 1 ms',
        met: overhead <= 1,
        note: `of which the wire with a plain HTTP client ${wireFloor.toPrecision(3)} ms and the MCP client ${(overhead - wireFloor).toPrecision(3)} ms; chatwire over the bare SDK client ${(p50.overMcp - p50.bareSdk).toPrecision(3)} ms`,
      },
      { group: 'mcp', name: 'MCP call overhead, JSON server (same measure)', value: overheadJson, unit: 'ms', goal: '<= 1 ms', met: overheadJson <= 1 },
      {
        group: 'mcp',
        name: `CPU of the client's process per call through chatwire, SSE server (p50 of blocks of ${CPU_BLOCK})`,
        value: median(cpu.overMcp),
        unit: 'ms',
        ratio: { value: median(cpu.overMcp) / median(cpu.bareSdk), against: 'bare SDK client' },
        note: `JSON server ${median3(cpu.overMcpJson)} ms; bare SDK client ${median3(cpu.bareSdk)} ms; plain POST ${median3(cpu.plainPost)} ms`,
      },
      { group: 'mcp', name: `open + close one turn's MCP client (connect, initialize, cached list, DELETE), p50 of ${OPENS}`, value: median(opens), unit: 'ms' },
    ];
  } finally {
    await Promise.all([server.down(), jsonServer.down()]);
  }
}
