/** Quantiles for the turn benches. */

/** The q-quantile (0..1) of the values, nearest-rank on a sorted copy. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** The p-th percentile (0..100) of already sorted values (floor rank, as the storage benches report it). */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

/** Runs `fn(i)` `runs` times in sequence and returns the wall times in milliseconds, sorted. */
export async function timeEach(runs: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}
