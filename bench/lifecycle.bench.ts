/**
 * Lifecycle of R2 (chatwire in-process, memory store, HS256 JWT), in a child `node --expose-gc`:
 * 10,000 sequential small turns (20 deltas; a 10-message history keeps this under a minute) must leave
 * the heap (after a full GC) and the active resources (`process.getActiveResourcesInfo()`) where they
 * were, and the heap must not grow over the second half; each turn's rows are deleted again so the
 * store itself does not grow. Then one 1,000,000-char
 * answer (10,000 deltas of 100 chars) against a 100,000-char one: time, CPU and the live heap the turn
 * holds when the model emits 90% of the answer must grow at most ~10x (linear; fixed costs make it less).
 * `--quick`: 1,500 turns (the heap and leak-slope goals are judged on full runs: over 750 turns the slope is
 * mostly GC noise); the answers are the same.
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.js';
import type { LifecycleResult } from './support/lifecycle-child.js';
import { QUICK, sized } from './support/quick.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Quick: 1,500 (the leak slope over 750 turns is then within GC noise: judge it on a full run). */
const TURNS = sized(10_000, 1_500);
const BIG = 1_000_000;

function run(): Promise<LifecycleResult> {
  return new Promise((resolve, reject) => {
    const child = fork(join(here, 'support', 'lifecycle-child.ts'), [String(TURNS), String(BIG)], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: LifecycleResult | undefined;
    child.on('message', (message: LifecycleResult) => (result = message));
    child.on('error', reject);
    child.on('exit', (code) => (result && code === 0 ? resolve(result) : reject(new Error(`lifecycle child exited with ${code}`))));
  });
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
const describe = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([type, n]) => `${type} ${n}`)
    .join(', ') || 'none';

export default async function bench(): Promise<BenchRow[]> {
  const r = await run();
  const heapDeltaKb = (r.heapAfter - r.heapBefore) / 1024;
  const secondHalf = (r.heapAfter - r.heapMid) / (r.turns / 2);
  const handleDelta = total(r.handlesAfter) - total(r.handlesBefore);
  const big = `${(r.big.chars / 1e6).toFixed(1)}M-char answer`;
  const small = `${(r.small.chars / 1e3).toFixed(0)}K-char answer`;
  const ratio = (a: number, b: number) => ({ value: a / b, against: small });
  const atMostLinear = (x: number) => x <= 12;
  const turns = r.turns.toLocaleString('en');
  return [
    {
      group: 'lifecycle',
      name: `R2 heap after ${turns} sequential turns minus before (full GC)`,
      value: heapDeltaKb,
      unit: 'KB',
      ratio: { value: r.heapAfter / r.heapBefore, against: `heap before (${(r.heapBefore / 2 ** 20).toFixed(1)} MB)` },
      goal: 'back at baseline (< 2%)',
      met: r.heapAfter <= r.heapBefore * 1.02,
    },
    {
      group: 'lifecycle',
      name: `R2 heap growth per turn over the second ${(r.turns / 2).toLocaleString('en')} turns (leak slope)`,
      value: secondHalf,
      unit: 'B/turn',
      ratio: { value: r.heapAfter / r.heapMid, against: 'heap at half-way' },
      goal: '< 64 B/turn (one leaked turn is KBs)',
      met: secondHalf < 64,
      ...(QUICK ? { note: `quick: ${turns} turns, the slope over ${(r.turns / 2).toLocaleString('en')} is mostly GC noise; judge it on a full run (10,000)` } : {}),
    },
    {
      group: 'lifecycle',
      name: `R2 active resources after ${turns} turns minus before`,
      value: handleDelta,
      unit: 'handles',
      ratio: {
        value: total(r.handlesBefore) === 0 ? (total(r.handlesAfter) === 0 ? 1 : Number.POSITIVE_INFINITY) : total(r.handlesAfter) / total(r.handlesBefore),
        against: `before (${describe(r.handlesBefore)})`,
      },
      goal: '0',
      met: handleDelta <= 0,
      note: `after: ${describe(r.handlesAfter)}`,
    },
    { group: 'lifecycle', name: 'R2 time per sequential small turn (20 deltas, 10 stored messages)', value: r.msPerTurn, unit: 'ms' },
    { group: 'lifecycle', name: `R2 ${small}: wall time`, value: r.small.ms, unit: 'ms' },
    { group: 'lifecycle', name: `R2 ${big}: wall time`, value: r.big.ms, unit: 'ms', ratio: ratio(r.big.ms, r.small.ms), goal: '<= ~10x (linear)', met: atMostLinear(r.big.ms / r.small.ms) },
    { group: 'lifecycle', name: `R2 ${small}: CPU`, value: r.small.cpuMs, unit: 'ms' },
    { group: 'lifecycle', name: `R2 ${big}: CPU`, value: r.big.cpuMs, unit: 'ms', ratio: ratio(r.big.cpuMs, r.small.cpuMs), goal: '<= ~10x (linear)', met: atMostLinear(r.big.cpuMs / r.small.cpuMs) },
    { group: 'lifecycle', name: `R2 ${small}: live heap held at 90% of the answer`, value: r.small.liveBytes / 2 ** 20, unit: 'MB' },
    { group: 'lifecycle', name: `R2 ${big}: live heap held at 90% of the answer`, value: r.big.liveBytes / 2 ** 20, unit: 'MB', ratio: ratio(r.big.liveBytes, r.small.liveBytes) },
    { group: 'lifecycle', name: `R2 ${small}: live heap growth from 10% to 90% of the answer`, value: r.small.growthBytes / 2 ** 20, unit: 'MB' },
    {
      group: 'lifecycle',
      name: `R2 ${big}: live heap growth from 10% to 90% of the answer`,
      value: r.big.growthBytes / 2 ** 20,
      unit: 'MB',
      ratio: ratio(r.big.growthBytes, r.small.growthBytes),
      goal: '<= ~10x (linear)',
      met: atMostLinear(r.big.growthBytes / r.small.growthBytes),
      note: `${(r.big.growthBytes / (0.8 * r.big.chars)).toFixed(2)} bytes of live heap per answer char`,
    },
  ];
}
