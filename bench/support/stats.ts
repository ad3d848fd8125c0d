/** Quantiles for the turn benches. */

/** The q-quantile (0..1) of the values, nearest-rank on a sorted copy. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);
