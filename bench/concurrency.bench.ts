/**
 * Concurrent streams over real sockets: every stream is paced at 20 chunks/s (one delta per 50 ms) by the
 * same mock model. R0 (hand-written floor) and R1 (bare AI SDK `pipeUIMessageStreamToResponse`) are plain
 * node:http servers, R2 is chatwire through its node adapter (`toNodeListener`, memory store, HS256 JWT,
 * 200 stored messages per chat, one chat per stream). Each server runs in its own child process
 * (`node --expose-gc`), the clients in another one and only read bytes.
 * Levels double from 50 (R0, R1 and R2 interleaved at each level); a level holds when every stream opens
 * and, over a 2 s window with all of them open, the p99 delay between consecutive chunks stays within
 * pacing + 50 ms (100 ms). After a line's first failure two bisection steps narrow its limit. Memory per open stream: heap + external after a full GC
 * with the streams open, minus the same before they opened, divided by the streams.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.js';
import type { ClientCommand, ClientReply, GapStats, ServerCommand, ServerReply } from './support/concurrency-protocol.js';

const here = dirname(fileURLToPath(import.meta.url));
const START = 50;
const MAX_STREAMS = 3200;
const HOLD_MS = 2000;
const OPEN_TIMEOUT_MS = 20_000;
const LIMIT_MS = 100;
const BUDGET_MS = 130_000;
const MEMORY_AT = 200;

type Line = 'r0' | 'r1' | 'r2';

interface Level {
  streams: number;
  held: boolean;
  openMs: number;
  stats: GapStats | null;
  bytesPerStream: number;
  /** Server diagnostics over the hold: longest GC pause, event-loop delay p99 and max. */
  server: { gcMaxMs: number; loopP99Ms: number; loopMaxMs: number } | null;
}

/** A child process answering one reply per command, in order. */
function channel<C, R extends { type: string }>(child: ChildProcess) {
  const queue: R[] = [];
  const waiting: Array<(reply: R) => void> = [];
  child.on('message', (reply: R) => (waiting.length > 0 ? waiting.shift()!(reply) : queue.push(reply)));
  const next = () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise<R>((resolve) => waiting.push(resolve)));
  return {
    next,
    async ask<T extends R['type']>(command: C, type: T): Promise<Extract<R, { type: T }>> {
      child.send(command as object);
      const reply = await next();
      if (reply.type !== type) throw new Error(`expected ${type}, got ${reply.type}`);
      return reply as Extract<R, { type: T }>;
    },
  };
}

function spawn(file: string, args: string[], gc: boolean): ChildProcess {
  return fork(join(here, 'support', file), args, {
    execArgv: [...(gc ? ['--expose-gc'] : []), '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

interface LineRunner {
  line: Line;
  levels: Level[];
  run(streams: number): Promise<Level>;
  exit(): void;
}

async function startLine(line: Line, client: ReturnType<typeof channel<ClientCommand, ClientReply>>): Promise<LineRunner> {
  const child = spawn('concurrency-server.ts', [line], true);
  const server = channel<ServerCommand, ServerReply>(child);
  const ready = await server.next();
  if (ready.type !== 'ready') throw new Error(`server ${line} did not start`);
  const levels: Level[] = [];
  return {
    line,
    levels,
    async run(streams) {
      const { spec } = await server.ask({ type: 'prepare', count: streams }, 'prepared');
      await server.ask({ type: 'idle' }, 'idle');
      const before = await server.ask({ type: 'memory' }, 'memory');
      const opened = await client.ask({ type: 'open', port: ready.port, count: streams, spec, openTimeoutMs: OPEN_TIMEOUT_MS }, 'opened');
      let stats: GapStats | null = null;
      let bytesPerStream = Number.NaN;
      let diagnostics: Level['server'] = null;
      if (opened.opened === streams) {
        await server.ask({ type: 'mark' }, 'marked');
        stats = (await client.ask({ type: 'hold', holdMs: HOLD_MS }, 'held')).stats;
        const during = await server.ask({ type: 'memory' }, 'memory');
        bytesPerStream = (during.heap + during.external - before.heap - before.external) / streams;
        diagnostics = { gcMaxMs: during.gcMaxMs, loopP99Ms: during.loopP99Ms, loopMaxMs: during.loopMaxMs };
      }
      await client.ask({ type: 'close' }, 'closed');
      await server.ask({ type: 'idle' }, 'idle');
      const held = stats !== null && stats.failed === 0 && stats.p99 <= LIMIT_MS;
      const level: Level = { streams, held, openMs: opened.ms, stats, bytesPerStream, server: diagnostics };
      levels.push(level);
      return level;
    },
    exit: () => child.send({ type: 'exit' } satisfies ServerCommand),
  };
}

/**
 * Ramps all three lines together, level by level (R0, R1, R2 at 50, then at 100...), so a noisy moment
 * of the shared machine hits every line alike; a line stops at its first failed level, then bisects.
 */
async function rampAll(runners: LineRunner[]): Promise<void> {
  const started = Date.now();
  const pass = new Map<Line, number>(runners.map((r) => [r.line, 0]));
  const fail = new Map<Line, number>(runners.map((r) => [r.line, 0]));
  for (let streams = START; streams <= MAX_STREAMS && Date.now() - started < BUDGET_MS; streams *= 2) {
    for (const runner of runners) {
      if (fail.get(runner.line)! > 0) continue;
      if ((await runner.run(streams)).held) pass.set(runner.line, streams);
      else fail.set(runner.line, streams);
    }
    if (runners.every((r) => fail.get(r.line)! > 0)) break;
  }
  for (let step = 0; step < 2; step++) {
    for (const runner of runners) {
      const lo = pass.get(runner.line)!;
      const hi = fail.get(runner.line)!;
      const mid = Math.round((lo + hi) / 2 / 25) * 25;
      if (hi === 0 || lo === 0 || mid <= lo || mid >= hi || Date.now() - started > BUDGET_MS) continue;
      if ((await runner.run(mid)).held) pass.set(runner.line, mid);
      else fail.set(runner.line, mid);
    }
  }
}

export default async function bench(): Promise<BenchRow[]> {
  const clientChild = spawn('concurrency-client.ts', [], false);
  const client = channel<ClientCommand, ClientReply>(clientChild);
  const runners: LineRunner[] = [];
  const loadBefore = loadavg()[0]!;
  try {
    for (const line of ['r0', 'r1', 'r2'] as const) runners.push(await startLine(line, client));
    await rampAll(runners);
  } finally {
    for (const runner of runners) runner.exit();
    clientChild.send({ type: 'exit' } satisfies ClientCommand);
  }
  const results = Object.fromEntries(runners.map((r) => [r.line, r.levels])) as Record<Line, Level[]>;
  const load = `machine load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after; `;

  const maxHeld = (line: Line) => results[line].filter((l) => l.held).reduce((m, l) => Math.max(m, l.streams), 0);
  const memoryLevel = (line: Line) => {
    const held = results[line].filter((l) => l.held && !Number.isNaN(l.bytesPerStream));
    return held.find((l) => l.streams === MEMORY_AT) ?? held.at(-1);
  };
  const describe = (line: Line) =>
    results[line]
      .map(
        (l) =>
          `${l.streams}: ${l.held ? 'held' : 'failed'} p99 ${l.stats ? l.stats.p99.toFixed(0) : '-'} ms, opened in ${l.openMs.toFixed(0)} ms, ` +
          `client ELU ${l.stats ? l.stats.clientElu.toFixed(2) : '-'}, server GC max ${l.server?.gcMaxMs.toFixed(0) ?? '-'} ms, ` +
          `server loop delay p99/max ${l.server?.loopP99Ms.toFixed(0) ?? '-'}/${l.server?.loopMaxMs.toFixed(0) ?? '-'} ms`,
      )
      .join('; ');
  const [m0, m1, m2] = (['r0', 'r1', 'r2'] as const).map(maxHeld) as [number, number, number];
  const capped = (n: number) => (n >= MAX_STREAMS ? ` (cap ${MAX_STREAMS} reached)` : '');
  const rows: BenchRow[] = [
    { group: 'concurrency', name: `R0 floor: max streams held at 20 chunks/s (p99 gap <= ${LIMIT_MS} ms)${capped(m0)}`, value: m0, unit: 'streams', note: load + describe('r0') },
    { group: 'concurrency', name: `R1 AI SDK route: max streams held${capped(m1)}`, value: m1, unit: 'streams', ratio: { value: m1 / m0, against: 'R0' }, note: describe('r1') },
    {
      group: 'concurrency',
      name: `R2 chatwire (node adapter): max streams held${capped(m2)}`,
      value: m2,
      unit: 'streams',
      ratio: { value: m2 / m1, against: 'R1' },
      goal: `>= R1 (stretch 2x${m2 >= 2 * m1 ? ': met' : ': not met'})`,
      met: m2 >= m1,
      note: describe('r2'),
    },
  ];
  const mem = (['r0', 'r1', 'r2'] as const).map(memoryLevel);
  const kb = (l: Level | undefined) => (l ? l.bytesPerStream / 1024 : Number.NaN);
  const at = (l: Level | undefined) => (l ? ` (at ${l.streams} streams)` : '');
  rows.push(
    { group: 'concurrency', name: `R0 floor: memory per open stream${at(mem[0])}`, value: kb(mem[0]), unit: 'KB' },
    { group: 'concurrency', name: `R1 AI SDK route: memory per open stream${at(mem[1])}`, value: kb(mem[1]), unit: 'KB', ratio: { value: kb(mem[1]) / kb(mem[0]), against: 'R0' } },
    {
      group: 'concurrency',
      name: `R2 chatwire: memory per open stream${at(mem[2])}`,
      value: kb(mem[2]),
      unit: 'KB',
      ratio: { value: kb(mem[2]) / kb(mem[1]), against: 'R1' },
      goal: '< 50 KB',
      met: kb(mem[2]) < 50,
    },
  );
  return rows;
}
