/**
 * Turn overhead, in-process through the fetch handlers: R0 (hand-written floor), R1 (bare AI SDK route),
 * R2 (chatwire: createChatHandler, memory store, real HS256 JWT, 200 stored messages, default compaction
 * and tools, persistence at finish), all over the same mock model emitting 500 text deltas as fast as
 * the reader pulls. Repetitions interleave R0/R1/R2 (rotating order) so machine noise hits all three.
 * Per turn: time to first body bytes, time to the first `text-delta` chunk, how long after the model
 * emitted its first text delta (the bench model's `onPart` hook) the reader got it, and process CPU
 * (process.cpuUsage) around the whole turn, divided by the 500 deltas. `--quick`: 5 s budget, fewer turns.
 */
import type { BenchRow } from './bench-row.js';
import { createBenchModel } from './support/bench-model.js';
import { consumeTurn, type TurnSample } from './support/consume-turn.js';
import { historyModelMessages } from './support/history.js';
import { createR0Handler, createR1Handler, createR2Fixture, type FetchHandler } from './support/routes.js';
import { sized } from './support/quick.js';
import { quantile } from './support/stats.js';

/** These rows price chatwire's own pipeline over a mock model (no provider package, no provider HTTP): never the headline. */
const OWN_SHARE = "turn, chatwire's own share (in-process mock model)";
const DELTAS = 500;
const WARMUP = sized(25, 10);
const MIN_REPS = sized(80, 30);
const MAX_REPS = sized(400, 100);
const BUDGET_MS = sized(35_000, 5_000);
/** The model's parts: stream-start, response-metadata, text-start, then the first text delta. */
const FIRST_DELTA_PART = 3;
/** Issue #18 goals: R2's CPU per chunk <= 0.5x R1's; its first text delta <= 0.5 ms after the provider's. */
const CPU_GOAL = 0.5;
const FIRST_DELTA_GOAL_MS = 0.5;

type LineName = 'R0' | 'R1' | 'R2';
/** A turn, with the time from the model's first text delta to the reader's. */
type Sample = TurnSample & { afterModelMs: number; afterCallMs: number };

export default async function bench(): Promise<BenchRow[]> {
  // When the model emitted the current turn's first part (its stream is pulled right as the provider call
  // returns) and its first text delta (turns run one at a time). The model is pulled: it emits a part when
  // the pipeline asks for it, as a real provider's delta would be read once it is asked for.
  let calledAt = Number.NaN;
  let emittedAt = Number.NaN;
  const onPart = (i: number) => {
    if (i === 0 && Number.isNaN(calledAt)) calledAt = performance.now();
    if (i === FIRST_DELTA_PART && Number.isNaN(emittedAt)) emittedAt = performance.now();
  };
  const model = createBenchModel({ deltas: DELTAS, onPart });
  const body = JSON.stringify({ messages: historyModelMessages(200) });
  // The reader's first text delta minus the model's emission of it: `consumeTurn` times from right after `startedAt`.
  const timed = async (handler: FetchHandler, request: Request): Promise<Sample> => {
    calledAt = emittedAt = Number.NaN;
    const startedAt = performance.now();
    const sample = await consumeTurn(handler, request);
    const readAt = startedAt + sample.firstTokenMs;
    return { ...sample, afterModelMs: readAt - emittedAt, afterCallMs: readAt - calledAt };
  };
  const bare = (handler: FetchHandler) => () =>
    timed(handler, new Request('http://127.0.0.1/api/chat', { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
  const r2 = await createR2Fixture(model);
  const chatId = await r2.createChat();
  const runs: Record<LineName, () => Promise<Sample>> = {
    R0: bare(createR0Handler(model)),
    R1: bare(createR1Handler(model)),
    R2: async () => {
      const { request, userMessageId } = r2.request(chatId);
      const sample = await timed(r2.handler, request);
      await r2.forget(userMessageId, sample.assistantMessageId);
      return sample;
    },
  };
  await checkPersistence(r2, chatId);

  const order: LineName[] = ['R0', 'R1', 'R2'];
  const samples: Record<LineName, Sample[]> = { R0: [], R1: [], R2: [] };
  const started = performance.now();
  let reps = 0;
  for (let rep = 0; rep < WARMUP + MAX_REPS; rep++) {
    if (rep >= WARMUP + MIN_REPS && performance.now() - started > BUDGET_MS) break;
    for (let k = 0; k < 3; k++) {
      const line = order[(rep + k) % 3]!;
      const sample = await runs[line]();
      if (sample.status !== 200 || sample.firstTokenMs < 0 || Number.isNaN(sample.afterModelMs + sample.afterCallMs)) throw new Error(`${line}: status ${sample.status}, no text-delta`);
      if (rep >= WARMUP) samples[line].push(sample);
    }
    if (rep >= WARMUP) reps++;
  }
  if (r2.errors.length > 0) throw new Error(`R2 reported errors: ${String(r2.errors[0])}`);

  const p = (line: LineName, field: 'firstByteMs' | 'firstTokenMs' | 'afterModelMs' | 'afterCallMs', q: number) => quantile(samples[line].map((s) => s[field]), q);
  const cpuPerChunk = (line: LineName) => samples[line].reduce((sum, s) => sum + s.cpuUs, 0) / samples[line].length / DELTAS;
  const within = { firstByteMs: 1, firstTokenMs: FIRST_DELTA_GOAL_MS };
  const note = `${reps} interleaved turns per line after ${WARMUP} warm-up, ${DELTAS} deltas each`;
  const rows: BenchRow[] = [];
  /** One measure on the three lines: R0 alone, R1 against R0, R2 against R1 (with `r2` added to R2's row). */
  const threeLines = (label: string, unit: string, [v0, v1, v2]: number[], r2: Partial<BenchRow> = {}, first: Partial<BenchRow> = {}): BenchRow[] => [
    { group: OWN_SHARE, name: `R0 floor: ${label}`, value: v0!, unit, ...first },
    { group: OWN_SHARE, name: `R1 AI SDK route: ${label}`, value: v1!, unit, ratio: { value: v1! / v0!, against: 'R0' } },
    { group: OWN_SHARE, name: `R2 chatwire: ${label}`, value: v2!, unit, ratio: { value: v2! / v1!, against: 'R1' }, ...r2 },
  ];

  for (const [field, label] of [
    ['firstByteMs', 'time to first byte'],
    ['firstTokenMs', 'time to first text-delta'],
  ] as const) {
    for (const q of [0.5, 0.99]) {
      const tag = q === 0.5 ? 'p50' : 'p99';
      const [v0, v1, v2] = (['R0', 'R1', 'R2'] as const).map((line) => p(line, field, q)) as [number, number, number];
      const goal = q === 0.5 ? { goal: `within ${within[field]} ms of R1 (R2 - R1 = ${(v2 - v1).toFixed(2)} ms)`, met: v2 - v1 <= within[field] } : {};
      rows.push(...threeLines(`${label} ${tag}`, 'ms', [v0, v1, v2], goal, { note }));
    }
  }
  const [a0, a1, a2] = (['R0', 'R1', 'R2'] as const).map((line) => p(line, 'afterModelMs', 0.5)) as [number, number, number];
  const [k0, k1, k2] = (['R0', 'R1', 'R2'] as const).map((line) => p(line, 'afterCallMs', 0.5)) as [number, number, number];
  const ttftGap = p('R2', 'firstTokenMs', 0.5) - p('R1', 'firstTokenMs', 0.5);
  const plus = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)} ms`;
  rows.push(
    ...threeLines('first text-delta read after the model emitted it, p50', 'ms', [a0, a1, a2], {
      goal: `<= ${FIRST_DELTA_GOAL_MS} ms after the model's`,
      met: a2 <= FIRST_DELTA_GOAL_MS,
      id: 'first-delta',
      summary: `${plus(a2)} (R1 ${plus(a1)}, R0 ${plus(a0)}; after the model call: R2 ${plus(k2)}, R1 ${plus(k1)}; time to first text-delta R2 - R1 ${plus(ttftGap)})`,
    }, { note }),
    ...threeLines('first text-delta read after the model call (its first part), p50', 'ms', [k0, k1, k2]),
  );
  const [c0, c1, c2] = (['R0', 'R1', 'R2'] as const).map(cpuPerChunk) as [number, number, number];
  rows.push(
    ...threeLines(`CPU per chunk (${DELTAS}-delta turn)`, 'us', [c0, c1, c2], {
      goal: `<= ${CPU_GOAL}x R1`,
      met: c2 / c1 <= CPU_GOAL,
      id: 'cpu-per-chunk',
      summary: `${(c2 / c1).toFixed(2)}x R1 (${c2.toFixed(2)} us; R1 ${c1.toFixed(2)} us, R0 ${c0.toFixed(2)} us; whole ${DELTAS}-delta turns)`,
    }, { note }),
  );
  return rows;
}

/** One R2 turn must store the user row, the full assistant answer and the turn row. */
async function checkPersistence(r2: Awaited<ReturnType<typeof createR2Fixture>>, chatId: string): Promise<void> {
  const { request, userMessageId } = r2.request(chatId);
  const sample = await consumeTurn(r2.handler, request);
  const server = r2.store.asServer();
  const assistant = await server.find<{ content: string }>('ai-messages', sample.assistantMessageId ?? '');
  const turn = await server.find('ai-turns', sample.assistantMessageId ?? '');
  if (!(await server.find('ai-messages', r2.userRecordId(userMessageId))) || assistant?.data.content.length !== DELTAS * 4 || !turn) {
    throw new Error('R2 did not persist the turn');
  }
  await r2.forget(userMessageId, sample.assistantMessageId);
}
