/**
 * One level of paced streams against a real-path line server: n streams opened by the stream client,
 * held for a window with all of them open (p99 gap between chunks, CPU of the server per text delta read
 * over the window), memory after a full GC with them open (RSS, heap + external) against the same
 * before they opened. And the ramp that finds how many streams a line holds.
 */
import { cpus } from 'node:os';
import type { ClientCommand, ClientReply, GapStats } from './concurrency-protocol.js';
import type { Channel } from './child-channel.js';
import type { LineServer } from './real-path-children.js';

/** A level holds when every stream opened and the p99 gap between chunks stays within pacing + 50 ms. */
export const GAP_LIMIT_MS = 100;

export interface Level {
  streams: number;
  held: boolean;
  openMs: number;
  stats: GapStats | null;
  /** Server CPU per text delta read over the hold window, µs. */
  cpuPerDeltaUs: number;
  rssPerStream: number;
  heapPerStream: number;
  /**
   * The servers' memory summed, bytes, after a full GC: before the streams opened and with them open (NaN if they
   * did not all open). RSS only grows to a new high-water mark (V8 and the allocator keep what they took), so a
   * level's own before already holds what the ramp's earlier levels grew: compare levels of one ramp with these.
   */
  memory: { rssBefore: number; rssDuring: number; heapBefore: number; heapDuring: number };
  server: { gcMaxMs: number; loopP99Ms: number } | null;
  /** The whole machine's CPU over the hold window: busy share of all its cores (every process: servers, clients, the provider, databases). */
  machineBusy: number;
  /** Errors the server(s) reported to their error hook so far (client-closed streams included), and the first. */
  errors: number;
  firstError?: string;
}

export type StreamClient = Channel<ClientCommand, ClientReply>;

/** Opens `streams` on each (server, client) pair at once (one pair: one process), holds, measures, closes. */
export async function runLevel(pairs: Array<{ server: LineServer; client: StreamClient }>, streams: number, holdMs: number, openTimeoutMs: number): Promise<Level> {
  const per = Math.round(streams / pairs.length);
  const specs = await Promise.all(pairs.map(({ server }) => server.prepare(per)));
  await Promise.all(pairs.map(({ server }) => server.idle()));
  const before = await Promise.all(pairs.map(({ server }) => server.ch.ask({ type: 'memory' }, 'memory')));
  const opened = await Promise.all(
    pairs.map(({ server, client }, i) => client.ask({ type: 'open', port: server.port, count: per, spec: specs[i]!, openTimeoutMs }, 'opened')),
  );
  const level: Level = { streams: per * pairs.length, held: false, openMs: Math.max(...opened.map((o) => o.ms)), stats: null, cpuPerDeltaUs: Number.NaN, rssPerStream: Number.NaN, heapPerStream: Number.NaN, memory: { rssBefore: Number.NaN, rssDuring: Number.NaN, heapBefore: Number.NaN, heapDuring: Number.NaN }, server: null, machineBusy: Number.NaN, errors: 0 };
  if (opened.every((o) => o.opened === per)) {
    await Promise.all(pairs.map(({ server }) => server.ch.ask({ type: 'mark' }, 'marked')));
    const cpu0 = await Promise.all(pairs.map(({ server }) => server.cpu()));
    const machine0 = machineTimes();
    const held = await Promise.all(pairs.map(({ client }) => client.ask({ type: 'hold', holdMs }, 'held')));
    const machine1 = machineTimes();
    const cpu1 = await Promise.all(pairs.map(({ server }) => server.cpu()));
    level.machineBusy = (machine1.busy - machine0.busy) / (machine1.total - machine0.total);
    const during = await Promise.all(pairs.map(({ server }) => server.ch.ask({ type: 'memory' }, 'memory')));
    const all = held.map((h) => h.stats);
    const sum = (f: (i: number) => number) => pairs.reduce((s, _, i) => s + f(i), 0);
    level.stats = { ...all[0]!, p99: Math.max(...all.map((s) => s.p99)), failed: sum((i) => all[i]!.failed), deltas: sum((i) => all[i]!.deltas), gaps: sum((i) => all[i]!.gaps) };
    level.cpuPerDeltaUs = sum((i) => cpu1[i]! - cpu0[i]!) / level.stats.deltas;
    const heap = (m: { heap: number; external: number }) => m.heap + m.external;
    level.memory = { rssBefore: sum((i) => before[i]!.rss), rssDuring: sum((i) => during[i]!.rss), heapBefore: sum((i) => heap(before[i]!)), heapDuring: sum((i) => heap(during[i]!)) };
    level.rssPerStream = (level.memory.rssDuring - level.memory.rssBefore) / level.streams;
    level.heapPerStream = (level.memory.heapDuring - level.memory.heapBefore) / level.streams;
    level.server = { gcMaxMs: Math.max(...during.map((d) => d.gcMaxMs)), loopP99Ms: Math.max(...during.map((d) => d.loopP99Ms)) };
    level.held = level.stats.failed === 0 && level.stats.p99 <= GAP_LIMIT_MS;
  }
  await Promise.all(pairs.map(({ client }) => client.ask({ type: 'close' }, 'closed')));
  const idle = await Promise.all(pairs.map(({ server }) => server.ch.ask({ type: 'idle' }, 'idle')));
  level.errors = idle.reduce((sum, i) => sum + i.errors, 0);
  const first = idle.find((i) => i.firstError !== undefined)?.firstError;
  if (first !== undefined) level.firstError = first.slice(0, 160);
  return level;
}

/** Busy and total CPU time of all the machine's cores so far (ms). */
function machineTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

export type TryLevel = (streams: number) => Promise<boolean>;

/**
 * The most streams a line holds: doubling from `start` until a level fails (or `max`, or the budget),
 * then `steps` bisection steps (rounded to 25). If `start` fails, `start / 2` is tried; 0 if that fails too.
 */
export async function ramp(tryLevel: TryLevel, start: number, max: number, steps: number, budgetMs: number): Promise<number> {
  const started = Date.now();
  let pass = 0;
  let fail = 0;
  for (let n = start; n <= max && Date.now() - started < budgetMs; n *= 2) {
    if (await tryLevel(n)) pass = n;
    else {
      fail = n;
      break;
    }
  }
  // Even the first level failed: one level at half of it, so a loaded moment still gives a figure.
  if (pass === 0 && fail === start && start >= 50 && (await tryLevel(start / 2))) pass = start / 2;
  for (let step = 0; step < steps && pass > 0 && fail > 0 && Date.now() - started < budgetMs; step++) {
    const mid = Math.round((pass + fail) / 2 / 25) * 25;
    if (mid <= pass || mid >= fail) break;
    if (await tryLevel(mid)) pass = mid;
    else fail = mid;
  }
  return pass;
}

export const describeLevel = (l: Level) =>
  `${l.streams}: ${l.held ? 'held' : 'failed'} p99 ${l.stats ? l.stats.p99.toFixed(0) : '-'} ms, opened in ${l.openMs.toFixed(0)} ms, ` +
  `client ELU ${l.stats ? l.stats.clientElu.toFixed(2) : '-'}, server loop p99 ${l.server?.loopP99Ms.toFixed(0) ?? '-'} ms` +
  (Number.isNaN(l.machineBusy) ? '' : `, machine CPU ${(100 * l.machineBusy).toFixed(0)} % busy`) +
  (l.errors > 0 ? `, ${l.errors} errors reported so far (first: ${l.firstError})` : '');
