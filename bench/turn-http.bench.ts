/**
 * The chat path as users run it: every line talks to ONE loopback Anthropic Messages server
 * (`support/anthropic-sse-server.ts`, its own process, SSE paced at one text delta per 50 ms) over HTTP.
 * - R0, the floor: node:http proxying the provider's SSE bytes (`support/real-path-r0.ts`);
 * - R1: the bare AI SDK app: jose JWT check, an in-memory chat list, `streamText` with the real
 *   `@ai-sdk/anthropic` package, the UI message stream piped to node:http (`support/real-path-r1.ts`);
 * - R2: chatwire as shipped: the example server of `pnpm start` with `PROVIDER_A_BASE_URL` pointed at the
 *   loopback provider (`support/real-path-r2.ts`).
 * Each line runs in its own server process; the clients in two more (turns; long streams) and only read
 * bytes. Measures, all lines in this run, whole turns through HTTP: server CPU per text delta over whole
 * turns (50 clients sending turns of 60 deltas back to back) and mid-stream (100 open streams, a hold window);
 * memory per open stream at 100 (RSS and heap + external, after a full GC, against before they opened; full
 * mode: the median over the three ramps, taken as their first level on fresh processes, each warmed by 20 streams opened and closed);
 * the first text delta after the provider wrote it (p50, one monotonic clock, one turn at a time); `GET /chats` requests/s over
 * 50 keep-alive connections against R0's bare JSON endpoint (the same 20-chat answer; best of interleaved rounds); the most paced streams held with a p99 gap
 * <= 100 ms (full mode: three ramps, each on fresh server processes). Plus the provider package alone
 * (`support/provider-read.ts`).
 */
import type { BenchRow } from './bench-row.js';
import { QUICK, sized } from './support/quick.js';
import { quantile } from './support/stats.js';
import { spawnChild, startLine, startProvider, startStreamClient, startTurnClient, type LineServer } from './support/real-path-children.js';
import { describeLevel, ramp, runLevel, type Level } from './support/real-path-levels.js';
import { channel } from './support/child-channel.js';
import type { ListClientCommand, ListClientReply } from './support/list-chats-protocol.js';
import { providerReadRows } from './support/provider-read-rows.js';

const PACE_MS = 50;
const TURN_DELTAS = 60;
const TURN_CLIENTS = 50;
const TURN_MS = sized(12_000, 2_000);
/** Streams at which memory and mid-stream CPU are taken (every line opens them within seconds). */
const MEMORY_AT = 100;
/**
 * Full mode: streams opened, held and closed on each fresh process before its ramp, so that memory and CPU at
 * MEMORY_AT price what an open stream holds and costs, not the code V8 compiles (heap code space, optimizing
 * compiler threads) and the module state made on a process's first streams; every line gets the same round.
 */
const WARM_STREAMS = 20;
/**
 * Full mode: memory per open stream is also given at this level of the ramps (R0 and R2 reach it; R1 does not):
 * at MEMORY_AT the process's own growth under load (V8's young generation, code, allocator arenas: several MB)
 * divided by 100 streams moves the RSS figure by tens of KB between ramps. At 400 the rows take the ramp's start
 * and the slope from MEMORY_AT (see `wideMemoryRows`).
 */
const MEMORY_WIDE = 400;
/** The first-text-delta phase: one turn at a time (queueing behind other turns' work is not what it prices). */
const FIRST_MS = sized(6_000, 1_000);
const HOLD_MS = sized(2_000, 1_000);
/** Warm-up of the whole-turn phase (10-delta answers, 20 clients). */
const WARM_MS = sized(1_000, 500);
const OPEN_TIMEOUT_MS = sized(20_000, 12_000);
const RAMPS = sized(3, 1);
const RAMP_BUDGET_MS = sized(90_000, 30_000);
const LIST_MS = sized(3_000, 1_000);
const LIST_WARMUP_MS = sized(500, 250);
const LIST_ROUNDS = sized(3, 1);
/** Quick: R1's one level above MEMORY_AT (full mode ramps to 3,200 with two bisection steps). */
const QUICK_R1_MAX = 150;
const LINES = ['r0', 'r1', 'r2'] as const;
type Name = (typeof LINES)[number];
const LABEL: Record<Name, string> = { r0: 'R0 floor (node:http proxy)', r1: 'R1 AI SDK app (@ai-sdk/anthropic)', r2: 'R2 chatwire as shipped' };

/** CHATWIRE_BENCH_PHASES=1: the seconds each phase took, on stderr (to size quick mode). */
let phaseAt = Date.now();
function phase(name: string): void {
  if (process.env.CHATWIRE_BENCH_PHASES === '1') process.stderr.write(`turn-http: ${name} ${((Date.now() - phaseAt) / 1000).toFixed(1)} s\n`);
  phaseAt = Date.now();
}

export default async function bench(): Promise<BenchRow[]> {
  phaseAt = Date.now();
  const provider = await startProvider();
  const turnClient = startTurnClient();
  const streamClient = startStreamClient();
  const rows: BenchRow[] = [];
  const row = (name: string, value: number, unit: string, extra: Partial<BenchRow> = {}): BenchRow => ({ group: 'turn-http', name, value, unit, ...extra });
  let servers: Record<Name, LineServer> | null = null;
  try {
    servers = await startAll(provider.port);
    phase('start');
    // Whole turns: CPU per delta, first text delta after the provider's write.
    const turns = {} as Record<Name, { cpu: number; afterMs: number; firstMs: number; turns: number }>;
    for (const warm of [true, false]) {
      // Warm-up: short answers (0.5 s), enough turns for the JIT; then the measured turns.
      await provider.config(warm ? 10 : TURN_DELTAS, PACE_MS);
      for (const name of LINES) {
        const server = servers[name];
        const spec = await server.prepare(TURN_CLIENTS);
        const cpu0 = await server.cpu();
        const { results } = await turnClient.ask({ type: 'turns', port: server.port, spec, concurrency: warm ? 20 : TURN_CLIENTS, durationMs: warm ? WARM_MS : TURN_MS }, 'turns');
        const cpu1 = await server.cpu();
        await server.idle();
        if (results.failed > 0 || results.deltas !== results.turns * (warm ? 10 : TURN_DELTAS)) throw new Error(`${name}: ${results.failed} turns failed, ${results.deltas} deltas in ${results.turns} turns`);
        if (!warm) turns[name] = { cpu: (cpu1 - cpu0) / results.deltas, afterMs: quantile(results.afterProviderMs, 0.5), firstMs: quantile(results.firstDeltaMs, 0.5), turns: results.turns };
      }
    }
    const [t0, t1, t2] = LINES.map((n) => turns[n]);
    const turnNote = `${TURN_CLIENTS} clients, turns of ${TURN_DELTAS} deltas at 20/s back to back for ${TURN_MS / 1000} s (R0/R1/R2 ${t0!.turns}/${t1!.turns}/${t2!.turns} turns); server process CPU / deltas read`;
    rows.push(
      row(`${LABEL.r0}: CPU per chunk, whole turns`, t0!.cpu, 'us', { note: turnNote }),
      row(`${LABEL.r1}: CPU per chunk, whole turns`, t1!.cpu, 'us', { ratio: { value: t1!.cpu / t0!.cpu, against: 'R0' } }),
      row(`${LABEL.r2}: CPU per chunk, whole turns`, t2!.cpu, 'us', {
        ratio: { value: t2!.cpu / t1!.cpu, against: 'R1' }, goal: '<= 0.5x R1', met: t2!.cpu / t1!.cpu <= 0.5, id: 'real-cpu-whole',
        summary: `${(t2!.cpu / t1!.cpu).toFixed(2)}x R1 (${t2!.cpu.toFixed(0)} us; R1 ${t1!.cpu.toFixed(0)} us, R0 ${t0!.cpu.toFixed(0)} us)`,
      }),
    );
    phase('whole turns');
    // First text delta: one turn at a time per line (5-delta answers), so the figure is the path's own latency.
    await provider.config(5, PACE_MS);
    for (const name of LINES) {
      const spec = await servers[name].prepare(1);
      const { results } = await turnClient.ask({ type: 'turns', port: servers[name].port, spec, concurrency: 1, durationMs: FIRST_MS }, 'turns');
      await servers[name].idle();
      if (results.failed > 0) throw new Error(`${name}: ${results.failed} single turns failed`);
      turns[name].afterMs = quantile(results.afterProviderMs, 0.5);
      turns[name].firstMs = quantile(results.firstDeltaMs, 0.5);
    }
    const plus = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)} ms`;
    const extra = t2!.afterMs - t0!.afterMs;
    rows.push(
      row(`${LABEL.r0}: first text delta read after the provider wrote it, p50`, t0!.afterMs, 'ms', { note: `one turn at a time, ${FIRST_MS / 1000} s per line; time to first text delta p50: R0 ${t0!.firstMs.toFixed(1)} ms, R1 ${t1!.firstMs.toFixed(1)} ms, R2 ${t2!.firstMs.toFixed(1)} ms (the provider waits ${PACE_MS} ms before its first delta)` }),
      row(`${LABEL.r1}: first text delta read after the provider wrote it, p50`, t1!.afterMs, 'ms'),
      row(`${LABEL.r2}: first text delta read after the provider wrote it, p50`, t2!.afterMs, 'ms', {
        goal: '<= +0.5 ms over R0 (the same two loopback hops)', met: extra <= 0.5, id: 'real-first-delta',
        summary: `${plus(extra)} over R0 (R2 ${t2!.afterMs.toFixed(2)} ms, R1 ${t1!.afterMs.toFixed(2)} ms, R0 ${t0!.afterMs.toFixed(2)} ms after the provider's write; R2 - R1 ${plus(t2!.afterMs - t1!.afterMs)})`,
      }),
    );

    phase('first delta');
    // GET /chats against R0's bare JSON endpoint: every line answers the same 20 chats of a user of their own (no
    // next page); rounds interleaved, the order rotating, the best round of each line counts (the machine is
    // shared). The server's CPU per request is printed too: unlike requests/s it does not depend on what else runs.
    const lister = channel<ListClientCommand, ListClientReply>(spawnChild('list-chats-client.ts'));
    const list = {} as Record<Name, { rps: number; cpu: number; bytes: number }>;
    for (let round = 0; round < LIST_ROUNDS; round++) {
      for (let i = 0; i < LINES.length; i++) {
        const name = LINES[(i + round) % LINES.length]!;
        const cpu0 = await servers[name].cpu();
        const { result } = await lister.ask({ type: 'run', spec: { port: servers[name].port, ...servers[name].list }, connections: 50, warmupMs: LIST_WARMUP_MS, durationMs: LIST_MS }, 'done');
        const cpu1 = await servers[name].cpu();
        if (result.errors > 0) throw new Error(`${name}: GET /chats answered ${result.errors} errors`);
        const rps = (result.requests / result.ms) * 1000;
        if (rps > (list[name]?.rps ?? 0)) list[name] = { rps, cpu: (cpu1 - cpu0) / result.answered, bytes: result.bodyBytes };
      }
    }
    lister.send({ type: 'exit' });
    const [l0, l1, l2] = LINES.map((n) => list[n]!);
    const listNote =
      `best of ${LIST_ROUNDS} interleaved round(s) of ${LIST_MS / 1000} s; the listing user holds 20 chats (the turns are another user's), ` +
      `answers of ${l0!.bytes}/${l1!.bytes}/${l2!.bytes} B; server CPU per request R0 ${l0!.cpu.toFixed(0)} us, R1 ${l1!.cpu.toFixed(0)} us, R2 ${l2!.cpu.toFixed(0)} us`;
    rows.push(
      row(`R0 bare JSON endpoint: GET /chats, 50 keep-alive connections`, l0!.rps, 'req/s', { note: listNote }),
      row(`${LABEL.r1}: GET /chats (jose + in-memory list)`, l1!.rps, 'req/s', { ratio: { value: l1!.rps / l0!.rps, against: 'R0' } }),
      row(`${LABEL.r2}: GET /chats`, l2!.rps, 'req/s', {
        ratio: { value: l2!.rps / l0!.rps, against: 'R0' }, goal: '>= 0.7x the bare endpoint', met: l2!.rps / l0!.rps >= 0.7, id: 'real-list-chats',
        summary: `${(l2!.rps / l0!.rps).toFixed(2)}x the bare endpoint (${l2!.rps.toFixed(0)} req/s; R1 ${l1!.rps.toFixed(0)}, R0 ${l0!.rps.toFixed(0)}; server CPU per request R2 ${l2!.cpu.toFixed(0)} us, R0 ${l0!.cpu.toFixed(0)} us)`,
      }),
    );

    phase('GET /chats');
    // Open streams: mid-stream CPU and memory at MEMORY_AT (quick: here; full: as the first level of every ramp,
    // on fresh processes after a warm-up round of WARM_STREAMS; quick: on the processes the turns ran on), then the ramps.
    await provider.config(1_000_000, PACE_MS);
    const atMemory: Record<Name, Level[]> = { r0: [], r1: [], r2: [] };
    const atWide: Record<Name, WideLevel[]> = { r0: [], r1: [], r2: [] };
    if (QUICK) {
      // Quick: on the processes the turns ran on (full mode starts fresh ones; three more server processes cost
      // ~20 s of quick mode's budget). Both figures are differences after a full GC, so what the turns left
      // behind is in the baseline.
      for (const name of LINES) atMemory[name].push(await runLevel([{ server: servers[name], client: streamClient }], MEMORY_AT, HOLD_MS, OPEN_TIMEOUT_MS));
    }

    phase('memory at 100');
    const held: Record<Name, number[]> = { r0: [], r1: [], r2: [] };
    const notes: Record<Name, string[]> = { r0: [], r1: [], r2: [] };
    for (let r = 0; r < RAMPS; r++) {
      if (r > 0 || !QUICK) {
        for (const s of Object.values(servers)) s.exit();
        servers = await startAll(provider.port);
      }
      const tryOn = (name: Name) => async (n: number) => {
        const level = await runLevel([{ server: servers![name], client: streamClient }], n, HOLD_MS, OPEN_TIMEOUT_MS);
        if (!QUICK && n === MEMORY_AT) atMemory[name].push(level);
        // The ramp began at MEMORY_AT, on this process: the level it reached MEMORY_WIDE from.
        if (!QUICK && n === MEMORY_WIDE) atWide[name].push({ start: atMemory[name].at(-1)!, wide: level });
        notes[name].push(`${RAMPS > 1 ? `ramp ${r + 1} ` : ''}${describeLevel(level)}`);
        return level.held;
      };
      if (QUICK) {
        // R1 at QUICK_R1_MAX if it held MEMORY_AT (above), else at half and a quarter of MEMORY_AT; then R2 straight
        // at 3x R1's figure; R0 not ramped.
        const heldAt = (name: Name) => (atMemory[name][0]!.held ? MEMORY_AT : 0);
        held.r0.push(heldAt('r0'));
        const r1Try = tryOn('r1');
        const r1 = heldAt('r1') > 0
          ? ((await r1Try(QUICK_R1_MAX)) ? QUICK_R1_MAX : MEMORY_AT)
          : (await r1Try(MEMORY_AT / 2)) ? MEMORY_AT / 2 : (await r1Try(MEMORY_AT / 4)) ? MEMORY_AT / 4 : 0;
        held.r1.push(Math.max(r1, heldAt('r1')));
        const target = Math.max(MEMORY_AT, Math.ceil((3 * held.r1[0]!) / 25) * 25);
        held.r2.push(target > MEMORY_AT && (await tryOn('r2')(target)) ? target : heldAt('r2'));
      } else {
        // Each line's warm-up round right before its ramp, whose first level is the memory level: every line is
        // measured in the same state (warmed seconds before), not R2 after minutes idle behind R0's and R1's
        // ramps, in which V8 gave back the young generation the first streams of the level then grew again.
        for (const name of LINES) {
          await runLevel([{ server: servers[name], client: streamClient }], WARM_STREAMS, HOLD_MS, OPEN_TIMEOUT_MS);
          held[name].push(await ramp(tryOn(name), MEMORY_AT, 3200, 2, RAMP_BUDGET_MS));
        }
      }
    }
    phase('ramps');
    rows.push(...openStreamRows(atMemory, row));
    if (!QUICK) rows.push(...wideMemoryRows(atWide, row));
    rows.push(...heldRows(held, notes, row));
    rows.push(...(await providerReadRows(provider, row)));
    phase('provider read alone');
  } finally {
    for (const s of Object.values(servers ?? {})) s.exit();
    turnClient.exit();
    streamClient.exit();
    provider.exit();
  }
  return rows;
}

async function startAll(providerPort: number): Promise<Record<Name, LineServer>> {
  const [r0, r1, r2] = await Promise.all(LINES.map((name) => startLine(name, providerPort)));
  return { r0: r0!, r1: r1!, r2: r2! };
}

type RowFn = (name: string, value: number, unit: string, extra?: Partial<BenchRow>) => BenchRow;

const kb = (b: number) => b / 1024;

/** The median of a figure over the ramps' levels (levels whose streams did not all open give NaN and are left out). */
function medianOver<T>(items: T[], f: (item: T) => number): number {
  const v = items.map(f).filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return v.length === 0 ? Number.NaN : v[Math.floor(v.length / 2)]!;
}

function openStreamRows(levels: Record<Name, Level[]>, row: RowFn): BenchRow[] {
  const med = (name: Name, f: (l: Level) => number) => medianOver(levels[name], f);
  const figures = (name: Name) => ({ cpuPerDeltaUs: med(name, (l) => l.cpuPerDeltaUs), rssPerStream: med(name, (l) => l.rssPerStream), heapPerStream: med(name, (l) => l.heapPerStream) });
  const at = { r0: figures('r0'), r1: figures('r1'), r2: figures('r2') };
  const [c0, c1, c2] = LINES.map((n) => at[n].cpuPerDeltaUs) as [number, number, number];
  const note = `${LINES.map((n) => `${n}: ${levels[n].map(describeLevel).join(' / ')}`).join(' | ')}; ${MEMORY_AT} open streams at 20 deltas/s${levels.r0.length > 1 ? `, median of ${levels.r0.length} ramps on fresh processes, each warmed by ${WARM_STREAMS} streams opened and closed` : QUICK ? ', quick: on the processes the turns ran on' : ''}, server CPU over a ${HOLD_MS / 1000} s hold / deltas read in it; memory after a full GC against before they opened`;
  const rows: BenchRow[] = [
    row(`${LABEL.r0}: CPU per chunk, mid-stream`, c0, 'us', { note }),
    row(`${LABEL.r1}: CPU per chunk, mid-stream`, c1, 'us', { ratio: { value: c1 / c0, against: 'R0' } }),
    row(`${LABEL.r2}: CPU per chunk, mid-stream`, c2, 'us', {
      ratio: { value: c2 / c0, against: 'R0' }, goal: '<= 2x R0', met: c2 / c0 <= 2, id: 'real-cpu-mid',
      summary: `${(c2 / c0).toFixed(2)}x R0 (${c2.toFixed(0)} us; R1 ${c1.toFixed(0)} us, R0 ${c0.toFixed(0)} us; R2/R1 ${(c2 / c1).toFixed(2)}x)`,
    }),
  ];
  for (const [field, label, id] of [['rssPerStream', 'RSS', 'real-mem-rss'], ['heapPerStream', 'heap + external', 'real-mem-heap']] as const) {
    const [m0, m1, m2] = LINES.map((n) => kb(at[n][field])) as [number, number, number];
    rows.push(
      row(`${LABEL.r0}: memory per open stream, ${label}`, m0, 'KB'),
      row(`${LABEL.r1}: memory per open stream, ${label}`, m1, 'KB', { ratio: { value: m1 / m0, against: 'R0' } }),
      row(`${LABEL.r2}: memory per open stream, ${label}`, m2, 'KB', {
        ratio: { value: m2 / m1, against: 'R1' }, goal: '<= 80 KB', met: m2 <= 80, id,
        summary: `${m2.toFixed(0)} KB (R1 ${m1.toFixed(0)} KB, R0 ${m0.toFixed(0)} KB)`,
      }),
    );
  }
  return rows;
}

/** A ramp's MEMORY_WIDE level and the MEMORY_AT level the same ramp began with, on the same process. */
interface WideLevel {
  start: Level;
  wide: Level;
}

/**
 * Memory per open stream at MEMORY_WIDE (a ramp level R0 and R2 reach), per ramp, three ways: against the ramp's
 * start (before its first level opened: the process as the MEMORY_AT figure found it), as the slope from MEMORY_AT
 * to MEMORY_WIDE open streams (what one more stream adds once the process has grown for MEMORY_AT), and against
 * the level's own before (what the rows gave until 28 Nov; that before already holds the high-water mark the
 * ramp's earlier levels left, so it undercounts).
 */
function wideMemoryRows(wide: Record<Name, WideLevel[]>, row: RowFn): BenchRow[] {
  const fromStart = (field: 'rss' | 'heap') => ({ start, wide: w }: WideLevel) => (w.memory[`${field}During`] - start.memory[`${field}Before`]) / w.streams;
  const slope = (field: 'rss' | 'heap') => ({ start, wide: w }: WideLevel) => (w.memory[`${field}During`] - start.memory[`${field}During`]) / (w.streams - start.streams);
  const perStream = (l: Level, field: 'rss' | 'heap') => (field === 'rss' ? l.rssPerStream : l.heapPerStream);
  const list = (levels: WideLevel[], f: (l: WideLevel) => number) => levels.map((l) => kb(f(l)).toFixed(0)).join('/');
  const rows: BenchRow[] = [];
  for (const name of ['r0', 'r2'] as const) {
    const levels = wide[name];
    if (levels.length === 0) continue;
    for (const [field, label] of [['rss', 'RSS'], ['heap', 'heap + external']] as const) {
      const note = `per ramp: against the ramp's start ${list(levels, fromStart(field))} KB; slope ${MEMORY_AT} -> ${MEMORY_WIDE} ${list(levels, slope(field))} KB; against the ${MEMORY_WIDE} level's own before (high-water mark of the ramp's earlier levels included: undercounts) ${list(levels, (l) => perStream(l.wide, field))} KB; at ${MEMORY_AT} ${list(levels, (l) => perStream(l.start, field))} KB`;
      rows.push(
        row(`${LABEL[name]}: memory per open stream at ${MEMORY_WIDE} open against the ramp's start, ${label}`, kb(medianOver(levels, fromStart(field))), 'KB', { note }),
        row(`${LABEL[name]}: memory added per stream from ${MEMORY_AT} to ${MEMORY_WIDE} open (slope), ${label}`, kb(medianOver(levels, slope(field))), 'KB'),
      );
    }
  }
  return rows;
}

function heldRows(held: Record<Name, number[]>, notes: Record<Name, string[]>, row: RowFn): BenchRow[] {
  const median = (v: number[]) => medianOver(v, (x) => x);
  const vs1 = held.r2.map((v, i) => v / held.r1[i]!);
  const vs0 = held.r2.map((v, i) => v / held.r0[i]!);
  const met = vs1.every((v) => v >= 3) && (QUICK || vs0.every((v) => v >= 0.4));
  const list = (v: Array<number | string>) => v.join('/');
  return [
    row(`${LABEL.r0}: streams held${QUICK ? ` (quick: only ${MEMORY_AT} tried)` : ` (${RAMPS} ramps: ${list(held.r0)})`}`, median(held.r0), 'streams', { note: notes.r0.join('; ') }),
    row(`${LABEL.r1}: streams held${RAMPS > 1 ? ` (${RAMPS} ramps: ${list(held.r1)})` : QUICK ? ` (quick: ${MEMORY_AT}, then ${QUICK_R1_MAX} at most)` : ''}`, median(held.r1), 'streams', { ratio: { value: median(held.r1) / median(held.r0), against: 'R0' }, note: notes.r1.join('; ') }),
    row(`${LABEL.r2}: streams held${QUICK ? " (quick: tried at 3x R1's only)" : ` (${RAMPS} ramps: ${list(held.r2)})`}`, median(held.r2), 'streams', {
      ratio: { value: median(vs1), against: 'R1' }, goal: `>= 3x R1 and >= 0.4x R0${RAMPS > 1 ? ', each ramp' : ''}`, met, id: 'real-held',
      summary: `${list(vs1.map((v) => v.toFixed(2)))}x R1, ${QUICK ? 'R0 not ramped in quick mode' : `${list(vs0.map((v) => v.toFixed(2)))}x R0`} (R2 ${list(held.r2)}, R1 ${list(held.r1)}, R0 ${list(held.r0)})`,
      note: notes.r2.join('; '),
    }),
  ];
}
