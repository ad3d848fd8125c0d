/**
 * Client child of `bench/concurrency.bench.ts`: opens n streaming POSTs to the server child, only reads
 * bytes, and measures the delay between consecutive chunks of each stream while all n are open.
 */
import { Agent, request, type ClientRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ClientCommand, ClientReply, GapStats, StreamSpec } from './concurrency-protocol.js';
import { quantile } from './stats.js';

const BATCH = 50;
const BATCH_EVERY_MS = 20;
const TEXT_DELTA = Buffer.from('"text-delta"');

interface Stream {
  req: ClientRequest;
  opened: boolean;
  last: number;
  closedByUs: boolean;
}

let streams: Stream[] = [];
let gaps: number[] = [];
let measuring = false;
let failed = 0;
let sequence = 0;
let deltas = 0;
let agent = new Agent({ keepAlive: false, maxSockets: Infinity });

function send(reply: ClientReply): void {
  process.send!(reply);
}

function openOne(port: number, spec: StreamSpec, index: number, onOpen: () => void): Stream {
  const body = spec.bodies[index % spec.bodies.length]!.replaceAll('__SEQ__', `${process.pid}-${++sequence}`);
  const marker = spec.marker === undefined ? TEXT_DELTA : Buffer.from(spec.marker);
  const stream: Stream = { req: undefined as unknown as ClientRequest, opened: false, last: 0, closedByUs: false };
  const fail = () => {
    if (!stream.closedByUs) failed++;
    stream.closedByUs = true;
  };
  stream.req = request(
    { host: '127.0.0.1', port, path: spec.path, method: 'POST', agent, headers: { ...spec.headers, 'content-length': Buffer.byteLength(body) } },
    (res) => {
      if (res.statusCode !== 200) fail();
      res.on('data', (chunk: Buffer) => {
        const now = performance.now();
        if (!stream.opened) {
          if (!chunk.includes(marker)) return;
          stream.opened = true;
          stream.last = now;
          onOpen();
          return;
        }
        if (measuring) {
          gaps.push(now - stream.last);
          for (let at = chunk.indexOf(marker); at !== -1; at = chunk.indexOf(marker, at + 1)) deltas++;
        }
        stream.last = now;
      });
      res.on('end', fail);
      res.on('error', fail);
    },
  );
  stream.req.on('error', fail);
  stream.req.end(body);
  return stream;
}

async function open(port: number, count: number, spec: StreamSpec, openTimeoutMs: number): Promise<void> {
  const started = performance.now();
  streams = [];
  gaps = [];
  failed = 0;
  let opened = 0;
  let resolveAll!: () => void;
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  const onOpen = () => {
    if (++opened === count) resolveAll();
  };
  for (let i = 0; i < count; i += BATCH) {
    for (let j = i; j < Math.min(count, i + BATCH); j++) streams.push(openOne(port, spec, j, onOpen));
    await new Promise((r) => setTimeout(r, BATCH_EVERY_MS));
  }
  await Promise.race([all, new Promise((r) => setTimeout(r, openTimeoutMs))]);
  send({ type: 'opened', opened, ms: performance.now() - started, failed });
}

async function hold(holdMs: number): Promise<void> {
  const elu0 = performance.eventLoopUtilization();
  deltas = 0;
  measuring = true;
  await new Promise((r) => setTimeout(r, holdMs));
  measuring = false;
  const elu = performance.eventLoopUtilization(elu0);
  const stats: GapStats = {
    gaps: gaps.length,
    p50: quantile(gaps, 0.5),
    p99: quantile(gaps, 0.99),
    max: gaps.reduce((a, b) => Math.max(a, b), 0),
    failed,
    clientElu: elu.utilization,
    deltas,
  };
  send({ type: 'held', stats });
}

function close(): void {
  for (const stream of streams) {
    stream.closedByUs = true;
    stream.req.destroy();
  }
  streams = [];
  gaps = [];
  agent.destroy();
  agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  send({ type: 'closed' });
}

process.on('message', (command: ClientCommand) => {
  switch (command.type) {
    case 'open':
      return void open(command.port, command.count, command.spec, command.openTimeoutMs);
    case 'hold':
      return void hold(command.holdMs);
    case 'close':
      return close();
    case 'exit':
      process.exit(0);
  }
});

// The bench that started this child is gone: so is the child.
process.on('disconnect', () => process.exit(0));
