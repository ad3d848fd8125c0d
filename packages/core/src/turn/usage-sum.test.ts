import { describe, expect, it } from 'vitest';
import { UsageSum } from './usage-sum.js';

describe('UsageSum', () => {
  it('sums each field over the steps; a field no step reported stays undefined', () => {
    const sum = new UsageSum();
    sum.add({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    sum.add({ inputTokens: 7, outputTokens: undefined, totalTokens: 9, cachedInputTokens: 4 });
    expect(sum.total).toEqual({ inputTokens: 17, outputTokens: 5, totalTokens: 24, cachedInputTokens: 4 });
    expect(sum.total.reasoningTokens).toBeUndefined();
  });

  it('starts with every field undefined', () => {
    expect(new UsageSum().total).toEqual({ inputTokens: undefined, outputTokens: undefined, totalTokens: undefined });
  });
});
