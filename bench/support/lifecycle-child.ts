/**
 * Child of `bench/lifecycle.bench.ts` (run as `node --expose-gc --import tsx`): R2 in-process.
 * 1. `turns` sequential small turns; heap (after full GC) and active resources before and after.
 * 2. One answer of `big` characters and one of a tenth of it (100-char deltas): wall time, process CPU,
 *    and live heap (after a full GC) held by the turn when the model emits 90% of the answer.
 * Sends one `LifecycleResult` to the parent (printed as JSON when run directly).
 */
import { createBenchModel } from './bench-model.js';
import { consumeTurn } from './consume-turn.js';
import { heapAfterGc, requireGc } from './heap-after-gc.js';
import { createR2Fixture } from './routes.js';
import { median } from './stats.js';

export interface AnswerCost {
  chars: number;
  ms: number;
  cpuMs: number;
  /** Live heap (full GC) when the model emits 90% of the answer, minus before the turn. */
  liveBytes: number;
  /** Live heap at 90% minus at 10% of the same turn: the part that grows with the answer. */
  growthBytes: number;
}

export interface LifecycleResult {
  turns: number;
  msPerTurn: number;
  heapBefore: number;
  /** After half of the turns: a leak shows as growth from here to the end. */
  heapMid: number;
  heapAfter: number;
  handlesBefore: Record<string, number>;
  handlesAfter: Record<string, number>;
  small: AnswerCost;
  big: AnswerCost;
}

const [turnsArg = '10000', bigArg = '1000000', historyArg = '10'] = process.argv.slice(2);
const TURNS = Number(turnsArg);
const BIG = Number(bigArg);
const DELTA = 'x'.repeat(99) + ' ';
requireGc();

function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
}

// 1. Sequential small turns, each forgotten afterwards so the store is back where it started.
const small = await createR2Fixture(createBenchModel({ deltas: 20 }), { historySize: Number(historyArg) });
const chatId = await small.createChat();
const turn = async () => {
  const { request, userMessageId } = small.request(chatId);
  const sample = await consumeTurn(small.handler, request);
  if (sample.status !== 200) throw new Error(`turn failed: ${sample.status}`);
  await small.forget(userMessageId, sample.assistantMessageId);
};
for (let i = 0; i < 1000; i++) await turn(); // warm-up: JIT, lazy indexes, pools
await settle();
const heapBefore = heapAfterGc();
const handlesBefore = handles();
const started = performance.now();
for (let i = 0; i < TURNS / 2; i++) await turn();
await settle();
const heapMid = heapAfterGc();
for (let i = TURNS / 2; i < TURNS; i++) await turn();
const msPerTurn = (performance.now() - started) / TURNS;
await settle();
const heapAfter = heapAfterGc();
const handlesAfter = handles();
if (small.errors.length > 0) throw new Error(`R2 reported: ${String(small.errors[0])}`);

// 2. A big answer and one a tenth of its size: time and CPU (median of 3 runs), then one run that stops
// at 90% of the answer for a full GC and reads the live heap the turn holds.
async function answerCost(chars: number): Promise<AnswerCost> {
  const deltas = Math.round(chars / DELTA.length);
  // The live heap is read inside the model when it is about to emit 90% of the deltas: the producer side,
  // since the turn does not wait for a slow reader and may be done long before the reader is.
  let measure = false;
  let base = 0;
  let at10 = 0;
  let at90 = 0;
  const first = 3 + Math.floor(deltas * 0.1);
  const last = 3 + Math.floor(deltas * 0.9);
  const onPart = (i: number) => {
    if (measure && i === first) at10 = heapAfterGc() - base;
    if (measure && i === last) at90 = heapAfterGc() - base;
  };
  // The default store limits (2 MiB per value, 4 MiB per record) hold a 1M-char answer stored twice.
  const r2 = await createR2Fixture(createBenchModel({ deltas, delta: DELTA, freshDeltas: true, onPart }), {
    historySize: Number(historyArg),
  });
  const chat = await r2.createChat();
  const runOnce = async (measureLive: boolean) => {
    const { request, userMessageId } = r2.request(chat);
    // Against the heap right before the turn (deleted rows may linger in the memory driver's lazily
    // swept lists afterwards, so "after" would not be a fair baseline).
    measure = measureLive;
    base = measureLive ? heapAfterGc() : 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const sample = await consumeTurn(r2.handler, request);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const assistantId = sample.assistantMessageId ?? '';
    const stored = await r2.store.asServer().find<{ content: string }>('ai-messages', assistantId);
    if (stored?.data.content.length !== deltas * DELTA.length) throw new Error('answer not stored in full');
    await r2.forget(userMessageId, assistantId);
    return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
  const timed = [await runOnce(false), await runOnce(false), await runOnce(false)];
  const live: Array<[number, number]> = [];
  for (let run = 0; run < 3; run++) {
    await runOnce(true);
    live.push([at90, at90 - at10]);
  }
  return {
    chars: deltas * DELTA.length,
    ms: median(timed.map((r) => r.ms)),
    cpuMs: median(timed.map((r) => r.cpuMs)),
    liveBytes: median(live.map((l) => l[0])),
    growthBytes: median(live.map((l) => l[1])),
  };
}

const smallAnswer = await answerCost(BIG / 10);
const bigAnswer = await answerCost(BIG);

const result: LifecycleResult = {
  turns: TURNS,
  msPerTurn,
  heapBefore,
  heapMid,
  heapAfter,
  handlesBefore,
  handlesAfter,
  small: smallAnswer,
  big: bigAnswer,
};
if (process.send) process.send(result);
else process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
