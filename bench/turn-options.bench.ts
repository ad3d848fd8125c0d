/**
 * What each optional part of a turn costs, measured against plain R2 (chatwire, memory store) in the same
 * run, turns interleaved so machine noise hits every line alike:
 * - the Redis hub (every chunk also appended to a Redis Stream): added time to the first text-delta;
 * - per-user limits checked before each turn: added time to the first byte (memory), and one check's own
 *   latency on Redis (through the handler the Redis line also moves with the Redis hub's traffic);
 * - OpenTelemetry observers with no SDK registered (the no-op API): added CPU and time;
 * - generated titles (`autoTitles`): time to the end of a chat's first turn, which must not grow.
 * And what the in-process hub's resumable log allocates per open stream beyond the answer bytes.
 * Redis lines need CHATWIRE_TEST_REDIS_URL; `--quick` runs fewer turns and streams, held open for less time.
 */
import { hub } from '@chatwire/core';
import { createTurnLimits, type TurnLimits } from '@chatwire/core/limits';
import { connectRedis } from '@chatwire/redis';
import { createOtelObservers } from '@chatwire/server';
import type { BenchRow } from './bench-row.js';
import { createBenchModel } from './support/bench-model.js';
import { consumeTurn, type TurnSample } from './support/consume-turn.js';
import { createR2Fixture, type R2Fixture, type R2Options } from './support/routes.js';
import { QUICK } from './support/quick.js';
import { quantile } from './support/stats.js';

const DELTAS = 100;
const WARMUP = QUICK ? 5 : 15;
const REPS = QUICK ? 40 : 150;
const OPEN_STREAMS = QUICK ? 50 : 150;
/** How long the streams stay open before the heap is read (20 deltas per second). */
const OPEN_MS = QUICK ? 1_500 : 2_500;
const REDIS_URL = process.env.CHATWIRE_TEST_REDIS_URL;

interface Line {
  name: string;
  fixture: R2Fixture;
  chatId: string;
  /** A fresh, empty chat per turn (the title lines: a title is made after a chat's first turn only). */
  freshChat: boolean;
  samples: Array<TurnSample & { totalMs: number }>;
}

export default async function bench(): Promise<BenchRow[]> {
  const model = createBenchModel({ deltas: DELTAS });
  const keyPrefix = `bench-${process.pid}`;
  const variants: Array<[string, R2Options['handler'], boolean]> = [
    ['R2 chatwire', {}, false],
    ['R2 + limits (memory)', { turnsPerMinute: 1e9, tokensPerDay: 1e12 }, false],
    ['R2 + OpenTelemetry observers, no SDK (no-op API)', { observe: createOtelObservers() }, false],
    ['R2, first turn of a new chat', {}, true],
    ['R2, first turn of a new chat, autoTitles on', { autoTitles: true }, true],
  ];
  if (REDIS_URL) {
    variants.push(['R2 + Redis hub', { redis: { url: REDIS_URL, keyPrefix } }, false]);
    variants.push(['R2 + limits (Redis)', { redis: { url: REDIS_URL, keyPrefix }, turnsPerMinute: 1e9, tokensPerDay: 1e12 }, false]);
  }
  const lines: Line[] = [];
  for (const [name, handler, freshChat] of variants) {
    const fixture = await createR2Fixture(model, { historySize: freshChat ? 0 : 20, handler });
    lines.push({ name, fixture, chatId: await fixture.createChat(), freshChat, samples: [] });
  }

  for (let rep = 0; rep < WARMUP + REPS; rep++) {
    for (let k = 0; k < lines.length; k++) {
      const line = lines[(rep + k) % lines.length]!;
      const chatId = line.freshChat ? await line.fixture.createChat() : line.chatId;
      const { request, userMessageId } = line.fixture.request(chatId);
      const t0 = performance.now();
      const sample = await consumeTurn(line.fixture.handler, request).catch((error: unknown) => {
        throw new Error(`${line.name}, turn ${rep + 1}: ${error instanceof Error ? error.message : String(error)}`);
      });
      const totalMs = performance.now() - t0;
      if (sample.status !== 200 || sample.firstTokenMs < 0) throw new Error(`${line.name}: status ${sample.status}`);
      if (!line.freshChat) await line.fixture.forget(userMessageId, sample.assistantMessageId);
      if (rep >= WARMUP) line.samples.push({ ...sample, totalMs });
    }
  }
  for (const line of lines) {
    if (line.fixture.errors.length > 0) throw new Error(`${line.name} reported: ${String(line.fixture.errors[0])}`);
  }

  const p50 = (line: Line, field: 'firstByteMs' | 'firstTokenMs' | 'totalMs') => quantile(line.samples.map((s) => s[field]), 0.5);
  const cpu = (line: Line) => line.samples.reduce((sum, s) => sum + s.cpuUs, 0) / line.samples.length / DELTAS;
  const base = lines[0]!;
  const note = `${REPS} interleaved turns per line, ${DELTAS} deltas, 20 stored messages`;
  const rows: BenchRow[] = [
    { group: 'turn options', name: 'R2 chatwire: time to first text-delta p50', value: p50(base, 'firstTokenMs'), unit: 'ms', note },
    { group: 'turn options', name: 'R2 chatwire: CPU per chunk', value: cpu(base), unit: 'us' },
  ];
  // Limits on Redis come with the Redis hub (the same `redis` option): they are priced against that line.
  const redisHub = lines.find((line) => line.name === 'R2 + Redis hub');
  const added = (line: Line, field: 'firstByteMs' | 'firstTokenMs', goalMs: number, label: string, against = base): BenchRow => {
    const delta = p50(line, field) - p50(against, field);
    const againstName = against === base ? 'R2' : against.name;
    return {
      group: 'turn options',
      name: `${line.name}: ${label} p50, added to ${againstName}`,
      value: delta,
      unit: 'ms',
      ratio: { value: p50(line, field) / p50(against, field), against: againstName },
      goal: `<= ${goalMs} ms`,
      met: delta <= goalMs,
    };
  };
  for (const line of lines.slice(1)) {
    if (line.name.includes('limits (memory)')) rows.push(added(line, 'firstByteMs', 0.5, 'time to first byte'));
    // Through the handler, the Redis line's first byte also moves with the Redis hub's traffic of the turns
    // around it; the goal is priced on the check itself (below).
    if (line.name.includes('limits (Redis)')) rows.push({ ...added(line, 'firstByteMs', 0.5, 'time to first byte', redisHub ?? base), goal: undefined, met: undefined });
    if (line.name.includes('Redis hub')) rows.push(added(line, 'firstTokenMs', 1, 'time to first text-delta'));
    if (line.name.includes('OpenTelemetry')) {
      rows.push(added(line, 'firstTokenMs', 0.1, 'time to first text-delta'));
      rows.push({
        group: 'turn options',
        name: `${line.name}: CPU per chunk`,
        value: cpu(line),
        unit: 'us',
        ratio: { value: cpu(line) / cpu(base), against: 'R2' },
        goal: 'within noise (<= 1.05x R2)',
        met: cpu(line) / cpu(base) <= 1.05,
      });
    }
  }
  const [fresh, titled] = [lines[3]!, lines[4]!];
  rows.push(
    { group: 'turn options', name: `${fresh.name}: time to the end of the stream p50`, value: p50(fresh, 'totalMs'), unit: 'ms' },
    {
      group: 'turn options',
      name: `${titled.name}: time to the end of the stream p50`,
      value: p50(titled, 'totalMs'),
      unit: 'ms',
      ratio: { value: p50(titled, 'totalMs') / p50(fresh, 'totalMs'), against: 'titles off' },
      goal: 'within noise (<= 1.1x titles off)',
      met: p50(titled, 'totalMs') / p50(fresh, 'totalMs') <= 1.1,
    },
  );
  rows.push(...(await memoryPerStream()));
  await Promise.all(lines.map((line) => line.fixture.handler.close()));
  if (REDIS_URL) rows.push(await redisLimitCheck(REDIS_URL));
  return rows;
}

/** What one limit check costs on Redis: `admit` (quota read + per-minute consume) p50, both limits on. */
async function redisLimitCheck(url: string): Promise<BenchRow> {
  const client = await connectRedis(url);
  try {
    const limits: TurnLimits = createTurnLimits({ redis: client, turnsPerMinute: 1e9, tokensPerDay: 1e12, keyPrefix: `bench-${process.pid}:` });
    const caller = { userId: 'bench-user' };
    const samples: number[] = [];
    for (let i = 0; i < (QUICK ? 600 : 3000); i++) {
      const t0 = performance.now();
      await limits.admit(caller);
      if (i >= 100) samples.push(performance.now() - t0);
      limits.used?.(caller, { inputTokens: 100, outputTokens: 500, totalTokens: 600 });
    }
    const p50 = quantile(samples, 0.5);
    return {
      group: 'turn options',
      name: 'limits (Redis): one check (quota read + per-minute consume), p50',
      value: p50,
      unit: 'ms',
      note: `p99 ${quantile(samples, 0.99).toFixed(3)} ms over ${samples.length} checks`,
      goal: '<= 0.5 ms',
      met: p50 <= 0.5,
    };
  } finally {
    await client.quit().catch(() => undefined);
  }
}

/**
 * What the in-process hub's resumable log holds per open stream (mid-answer, about 50 deltas sent; 30 in quick
 * mode): the hub's own count of the blocks it allocated against the answer bytes it was given. A heap
 * difference without a forced GC (the run has none) moved by tens of KB between runs; this figure does not.
 */
async function memoryPerStream(): Promise<BenchRow[]> {
  const memoryHub = hub.createMemoryTurnHub();
  const model = createBenchModel({ deltas: 100_000, paceMs: 50 });
  const fixture = await createR2Fixture(model, { historySize: 0, handler: { hub: memoryHub } });
  const controllers: AbortController[] = [];
  const readers: Promise<unknown>[] = [];
  for (let i = 0; i < OPEN_STREAMS; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    const { request } = fixture.request(await fixture.createChat(), controller.signal);
    const response = await fixture.handler(request);
    readers.push(new Response(response.body).arrayBuffer().catch(() => undefined));
  }
  // About 50 deltas per stream at 20 per second (30 in quick mode).
  await new Promise((resolve) => setTimeout(resolve, OPEN_MS));
  const stats = memoryHub.stats();
  for (const controller of controllers) controller.abort();
  await Promise.all(readers);
  await fixture.handler.close();
  const perStream = (bytes: number) => bytes / stats.turns / 1024;
  const extra = perStream(stats.allocatedBytes - stats.bytes);
  return [
    {
      group: 'turn options',
      name: `hub log per open stream (${stats.turns} streams, ~${OPEN_MS / 50} deltas each): blocks allocated`,
      value: perStream(stats.allocatedBytes),
      unit: 'KB',
      ratio: { value: stats.allocatedBytes / stats.bytes, against: `the answer bytes (${perStream(stats.bytes).toFixed(1)} KB)` },
      goal: `hub adds <= 10 KB per stream beyond the answer bytes (adds ${extra.toFixed(1)} KB)`,
      met: extra <= 10,
    },
  ];
}
