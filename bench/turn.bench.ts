/**
 * Turn overhead, in-process through the fetch handlers: R0 (hand-written floor), R1 (bare AI SDK route),
 * R2 (chatwire: createChatHandler, memory store, real HS256 JWT, 200 stored messages, default compaction
 * and tools, persistence at finish), all over the same mock model emitting 500 text deltas as fast as
 * the reader pulls. Repetitions interleave R0/R1/R2 (rotating order) so machine noise hits all three.
 * Per turn: time to first body bytes, time to the first `text-delta` chunk, and process CPU
 * (process.cpuUsage) around the whole turn, divided by the 500 deltas.
 */
import type { BenchRow } from './bench-row.js';
import { createBenchModel } from './support/bench-model.js';
import { consumeTurn, type TurnSample } from './support/consume-turn.js';
import { historyModelMessages } from './support/history.js';
import { createR0Handler, createR1Handler, createR2Fixture } from './support/routes.js';
import { quantile } from './support/stats.js';

const DELTAS = 500;
const WARMUP = 25;
const MIN_REPS = 80;
const MAX_REPS = 400;
const BUDGET_MS = 35_000;

type LineName = 'R0' | 'R1' | 'R2';

export default async function bench(): Promise<BenchRow[]> {
  const model = createBenchModel({ deltas: DELTAS });
  const body = JSON.stringify({ messages: historyModelMessages(200) });
  const bare = (handler: ReturnType<typeof createR0Handler>) => () =>
    consumeTurn(handler, new Request('http://127.0.0.1/api/chat', { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
  const r2 = await createR2Fixture(model);
  const chatId = await r2.createChat();
  const runs: Record<LineName, () => Promise<TurnSample>> = {
    R0: bare(createR0Handler(model)),
    R1: bare(createR1Handler(model)),
    R2: async () => {
      const { request, userMessageId } = r2.request(chatId);
      const sample = await consumeTurn(r2.handler, request);
      await r2.forget(userMessageId, sample.assistantMessageId);
      return sample;
    },
  };
  await checkPersistence(r2, chatId);

  const order: LineName[] = ['R0', 'R1', 'R2'];
  const samples: Record<LineName, TurnSample[]> = { R0: [], R1: [], R2: [] };
  const started = performance.now();
  let reps = 0;
  for (let rep = 0; rep < WARMUP + MAX_REPS; rep++) {
    if (rep >= WARMUP + MIN_REPS && performance.now() - started > BUDGET_MS) break;
    for (let k = 0; k < 3; k++) {
      const line = order[(rep + k) % 3]!;
      const sample = await runs[line]();
      if (sample.status !== 200 || sample.firstTokenMs < 0) throw new Error(`${line}: status ${sample.status}, no text-delta`);
      if (rep >= WARMUP) samples[line].push(sample);
    }
    if (rep >= WARMUP) reps++;
  }
  if (r2.errors.length > 0) throw new Error(`R2 reported errors: ${String(r2.errors[0])}`);

  const p = (line: LineName, field: 'firstByteMs' | 'firstTokenMs', q: number) => quantile(samples[line].map((s) => s[field]), q);
  const cpuPerChunk = (line: LineName) => samples[line].reduce((sum, s) => sum + s.cpuUs, 0) / samples[line].length / DELTAS;
  const note = `${reps} interleaved turns per line after ${WARMUP} warm-up, ${DELTAS} deltas each`;
  const rows: BenchRow[] = [];

  for (const [field, label] of [
    ['firstByteMs', 'time to first byte'],
    ['firstTokenMs', 'time to first text-delta'],
  ] as const) {
    for (const q of [0.5, 0.99]) {
      const tag = q === 0.5 ? 'p50' : 'p99';
      const [v0, v1, v2] = (['R0', 'R1', 'R2'] as const).map((line) => p(line, field, q)) as [number, number, number];
      rows.push(
        { group: 'turn', name: `R0 floor: ${label} ${tag}`, value: v0, unit: 'ms', note },
        { group: 'turn', name: `R1 AI SDK route: ${label} ${tag}`, value: v1, unit: 'ms', ratio: { value: v1 / v0, against: 'R0' } },
        {
          group: 'turn',
          name: `R2 chatwire: ${label} ${tag}`,
          value: v2,
          unit: 'ms',
          ratio: { value: v2 / v1, against: 'R1' },
          ...(q === 0.5 ? { goal: `within 1 ms of R1 (R2 - R1 = ${(v2 - v1).toFixed(2)} ms)`, met: v2 - v1 <= 1 } : {}),
        },
      );
    }
  }
  const [c0, c1, c2] = (['R0', 'R1', 'R2'] as const).map(cpuPerChunk) as [number, number, number];
  rows.push(
    { group: 'turn', name: 'R0 floor: CPU per chunk (500-delta turn)', value: c0, unit: 'us', note },
    { group: 'turn', name: 'R1 AI SDK route: CPU per chunk', value: c1, unit: 'us', ratio: { value: c1 / c0, against: 'R0' } },
    {
      group: 'turn',
      name: 'R2 chatwire: CPU per chunk',
      value: c2,
      unit: 'us',
      ratio: { value: c2 / c1, against: 'R1' },
      goal: `<= 1.0x R1 (stretch 0.5x${c2 / c1 <= 0.5 ? ': met' : ': not met'})`,
      met: c2 / c1 <= 1,
    },
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
