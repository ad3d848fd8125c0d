/**
 * Concurrent streams over real sockets: every stream is paced at 20 chunks/s (one delta per 50 ms) by the
 * same mock model. R0 (hand-written floor) and R1 (bare AI SDK `pipeUIMessageStreamToResponse`) are plain
 * node:http servers, R2 is chatwire through its node adapter (`toNodeListener`, memory store, HS256 JWT,
 * 200 stored messages per chat, one chat per stream). Each server runs in its own child process
 * (`node --expose-gc`), the clients in another one and only read bytes.
 * A level holds when every stream opens and, over a hold window with all of them open, the p99 delay
 * between consecutive chunks stays within pacing + 50 ms (100 ms). Memory per open stream: heap + external
 * after a full GC with the streams open, minus the same before they opened, divided by the streams (at 200).
 * Full mode: levels double from 50 (R0, R1 and R2 interleaved at each level), after a line's first failure
 * two bisection steps narrow its limit; then two more ramps of R1 and R2 alone, each on fresh server
 * processes, so the R2/R1 ratio of streams held is given over three ramps (issue #18: >= 3x in each).
 * `--quick`: one ramp, the three servers started at once; R0, R1 and R2 at 200 streams (memory), R1 at 300 if it
 * held 200 (no further level), then R2 tried at 3x R1's limit only (the goal), 1 s holds, 8 s to open.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.js';
import type { ClientCommand, ClientReply, GapStats, ServerCommand, ServerReply } from './support/concurrency-protocol.js';
import { QUICK } from './support/quick.js';
import { channel, type Channel } from './support/child-channel.js';

/** These rows price chatwire's own pipeline over a mock model (no provider package, no provider HTTP): never the headline. */
const OWN_SHARE = "concurrency, chatwire's own share (mock model)";
const here = dirname(fileURLToPath(import.meta.url));
const START = 50;
const MAX_STREAMS = QUICK ? 1600 : 3200;
const HOLD_MS = QUICK ? 1000 : 2000;
const OPEN_TIMEOUT_MS = QUICK ? 5_000 : 20_000;
/** Quick: R1's one level above MEMORY_AT (1.5x: R1 holds about 300 here, and a 400-stream level costs its open timeout). */
const QUICK_R1_MAX = 300;
const LIMIT_MS = 100;
/** Per ramp. */
const BUDGET_MS = QUICK ? 45_000 : 130_000;
const MEMORY_AT = 200;
const RAMPS = QUICK ? 1 : 3;
/** Issue #18 goals: R2 holds >= 3x R1's streams (in every ramp) with <= 0.3x R1's memory per stream. */
const HELD_GOAL = 3;
const MEMORY_GOAL = 0.3;

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

async function startLine(line: Line, client: Channel<ClientCommand, ClientReply>): Promise<LineRunner> {
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
 * Ramps the lines together, level by level (R0, R1, R2 at 50, then at 100...), so a noisy moment
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

/**
 * `--quick`: every line at MEMORY_AT (memory per stream), R1 at QUICK_R1_MAX if it held MEMORY_AT (no further
 * level), then R2 straight at HELD_GOAL x R1's limit (one bisection step down if that fails). R2's
 * figure is then "held at least this many", enough to tell whether the goal is met.
 */
async function rampQuick(r0: LineRunner, r1: LineRunner, r2: LineRunner): Promise<void> {
  const started = Date.now();
  const inBudget = () => Date.now() - started < BUDGET_MS;
  for (const runner of [r0, r1, r2]) await runner.run(MEMORY_AT);
  let pass = r1.levels[0]!.held ? MEMORY_AT : 0;
  let fail = pass === 0 ? MEMORY_AT : 0;
  if (fail === 0 && inBudget() && (await r1.run(QUICK_R1_MAX)).held) pass = QUICK_R1_MAX;
  const target = Math.min(MAX_STREAMS, Math.ceil((HELD_GOAL * Math.max(pass, 50)) / 25) * 25);
  if (target > MEMORY_AT && inBudget() && !(await r2.run(target)).held) {
    const low = r2.levels[0]!.held ? MEMORY_AT : 0;
    const between = Math.round((low + target) / 2 / 25) * 25;
    if (low > 0 && between > low && inBudget()) await r2.run(between);
  }
}

type Results = Record<Line, Level[]>;

export default async function bench(): Promise<BenchRow[]> {
  const clientChild = spawn('concurrency-client.ts', [], false);
  const client = channel<ClientCommand, ClientReply>(clientChild);
  const ramps: Results[] = [];
  const loadBefore = loadavg()[0]!;
  try {
    for (let ramp = 0; ramp < RAMPS; ramp++) {
      // R0 (the floor) in the first ramp only; every ramp on fresh server processes.
      const lines: Line[] = ramp === 0 ? ['r0', 'r1', 'r2'] : ['r1', 'r2'];
      const runners: LineRunner[] = [];
      try {
        if (QUICK) runners.push(...(await Promise.all(lines.map((line) => startLine(line, client)))));
        else for (const line of lines) runners.push(await startLine(line, client));
        if (QUICK) await rampQuick(runners[0]!, runners[1]!, runners[2]!);
        else await rampAll(runners);
      } finally {
        for (const runner of runners) runner.exit();
      }
      ramps.push({ r0: [], r1: [], r2: [], ...(Object.fromEntries(runners.map((r) => [r.line, r.levels])) as Partial<Results>) });
    }
  } finally {
    clientChild.send({ type: 'exit' } satisfies ClientCommand);
  }
  const load = `machine load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after; `;

  const maxHeld = (levels: Level[]) => levels.filter((l) => l.held).reduce((m, l) => Math.max(m, l.streams), 0);
  const memoryLevel = (levels: Level[]) => {
    const held = levels.filter((l) => l.held && !Number.isNaN(l.bytesPerStream));
    return held.find((l) => l.streams === MEMORY_AT) ?? held.at(-1);
  };
  const describe = (levels: Level[]) =>
    levels
      .map(
        (l) =>
          `${l.streams}: ${l.held ? 'held' : 'failed'} p99 ${l.stats ? l.stats.p99.toFixed(0) : '-'} ms, opened in ${l.openMs.toFixed(0)} ms, ` +
          `client ELU ${l.stats ? l.stats.clientElu.toFixed(2) : '-'}, server GC max ${l.server?.gcMaxMs.toFixed(0) ?? '-'} ms, ` +
          `server loop delay p99/max ${l.server?.loopP99Ms.toFixed(0) ?? '-'}/${l.server?.loopMaxMs.toFixed(0) ?? '-'} ms`,
      )
      .join('; ');
  const describeRamps = (line: Line) => ramps.map((r, i) => `${RAMPS > 1 ? `ramp ${i + 1}: ` : ''}${describe(r[line])}`).join(' | ');
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const fmt = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
  const list = (values: number[], digits = 0) => values.map((v) => v.toFixed(digits)).join('/');

  const m0 = maxHeld(ramps[0]!.r0);
  const held1 = ramps.map((r) => maxHeld(r.r1));
  const held2 = ramps.map((r) => maxHeld(r.r2));
  const ratios = ramps.map((_, i) => held2[i]! / held1[i]!);
  const [lo, mid, hi] = [Math.min(...ratios), median(ratios), Math.max(...ratios)];
  const capped = (values: number[]) => (values.some((n) => n >= MAX_STREAMS) ? ` (cap ${MAX_STREAMS} reached)` : '');
  const over = RAMPS > 1 ? `median of ${RAMPS} ramps: ${list(held1)}` : '';
  const rows: BenchRow[] = [
    QUICK
      ? { group: OWN_SHARE, name: `R0 floor: held ${MEMORY_AT} streams at 20 chunks/s, p99 gap <= ${LIMIT_MS} ms (quick: one level only)`, value: m0, unit: 'streams', note: load + describe(ramps[0]!.r0) }
      : { group: OWN_SHARE, name: `R0 floor: max streams held at 20 chunks/s (p99 gap <= ${LIMIT_MS} ms)${capped([m0])}`, value: m0, unit: 'streams', note: load + describe(ramps[0]!.r0) },
    {
      group: OWN_SHARE,
      name: `R1 AI SDK route: max streams held${over ? ` (${over})` : ''}${QUICK ? ` (quick: ${MEMORY_AT}, then ${QUICK_R1_MAX} at most)` : ''}${capped(held1)}`,
      value: median(held1),
      unit: 'streams',
      ...(QUICK ? {} : { ratio: { value: median(held1) / m0, against: 'R0' } }),
      note: describeRamps('r1'),
    },
    {
      group: OWN_SHARE,
      name: `R2 chatwire (node adapter): ${QUICK ? `streams held (quick: tried at ${HELD_GOAL}x R1's limit only)` : `max streams held (median of ${RAMPS} ramps: ${list(held2)})`}${capped(held2)}`,
      value: median(held2),
      unit: 'streams',
      ratio: { value: mid, against: 'R1' },
      goal: RAMPS > 1 ? `>= ${HELD_GOAL}x R1 in each of ${RAMPS} ramps` : `>= ${HELD_GOAL}x R1 (full mode: in each of 3 ramps)`,
      met: lo >= HELD_GOAL,
      id: 'streams-held',
      summary:
        RAMPS > 1
          ? `min/median/max ${list([lo, mid, hi], 2)}x R1 (R2 ${list(held2)}, R1 ${list(held1)} streams)${capped(held2)}`
          : `${QUICK ? '>= ' : ''}${mid.toFixed(2)}x R1 (R2 ${held2[0]}, R1 ${held1[0]} streams; one ramp)`,
      note: describeRamps('r2'),
    },
  ];
  const kb = (l: Level | undefined) => (l ? l.bytesPerStream / 1024 : Number.NaN);
  const kb0 = kb(memoryLevel(ramps[0]!.r0));
  const kb1s = ramps.map((r) => kb(memoryLevel(r.r1)));
  const kb2s = ramps.map((r) => kb(memoryLevel(r.r2)));
  const [kb1, kb2] = [median(kb1s), median(kb2s)];
  const at = (levels: Level[]) => memoryLevel(levels)?.streams;
  const where = (line: Line) => {
    const levels = ramps.map((r) => at(r[line]));
    return RAMPS > 1 ? ` (median of ${RAMPS} ramps: ${list(line === 'r1' ? kb1s : kb2s)} KB, at ${levels.join('/')} streams)` : ` (at ${levels[0]} streams)`;
  };
  const memRatio = kb2 / kb1;
  rows.push(
    { group: OWN_SHARE, name: `R0 floor: memory per open stream (at ${at(ramps[0]!.r0)} streams)`, value: kb0, unit: 'KB' },
    { group: OWN_SHARE, name: `R1 AI SDK route: memory per open stream${where('r1')}`, value: kb1, unit: 'KB', ratio: { value: kb1 / kb0, against: 'R0' } },
    {
      group: OWN_SHARE,
      name: `R2 chatwire: memory per open stream${where('r2')}`,
      value: kb2,
      unit: 'KB',
      ratio: { value: memRatio, against: 'R1' },
      goal: `<= ${MEMORY_GOAL}x R1 (R0 floor ${fmt(kb0)} KB)`,
      met: memRatio <= MEMORY_GOAL,
      id: 'mem-per-stream',
      summary: `${memRatio.toFixed(2)}x R1 (${fmt(kb2)} KB; R1 ${fmt(kb1)} KB, R0 floor ${fmt(kb0)} KB)`,
    },
  );
  return rows;
}
