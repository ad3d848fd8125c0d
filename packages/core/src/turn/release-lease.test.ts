import type { TurnLease } from '@chatwire/storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { releaseLease } from './release-lease.js';

/** A lease whose release fails `failures` times (a database outage), recording when each attempt ran. */
function flakyLease(failures: number) {
  const attempts: number[] = [];
  const lease: TurnLease = {
    key: 'chat:c1',
    holder: 'h1',
    renew: async () => true,
    release: async () => {
      attempts.push(Date.now());
      if (attempts.length <= failures) throw new Error('database unavailable');
    },
  };
  return { lease, attempts };
}

describe('releaseLease', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('releases once and schedules nothing when the first release succeeds', async () => {
    const { lease, attempts } = flakyLease(0);
    const report = vi.fn();
    await releaseLease(lease, 15_000, report);
    expect(attempts).toEqual([0]);
    expect(report).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('after a failed release, retries in the background with doubling backoff until one succeeds', async () => {
    const { lease, attempts } = flakyLease(4);
    const report = vi.fn();
    await releaseLease(lease, 15_000, report);
    expect(attempts).toEqual([0]);
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]![0]).toBeInstanceOf(Error);
    await vi.advanceTimersByTimeAsync(10_000);
    // 100 ms, then 200, 400, 800 after each failure; the fifth attempt succeeds and nothing more runs.
    expect(attempts).toEqual([0, 100, 300, 700, 1_500]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('caps the backoff at 2 s', async () => {
    const { lease, attempts } = flakyLease(Number.POSITIVE_INFINITY);
    await releaseLease(lease, 60_000, () => undefined);
    await vi.advanceTimersByTimeAsync(12_000);
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    expect(gaps.slice(0, 5)).toEqual([100, 200, 400, 800, 1_600]);
    expect(gaps.slice(5).every((gap) => gap === 2_000)).toBe(true);
    expect(gaps.length).toBeGreaterThan(6);
  });

  it('gives up once the lease would have expired anyway (the ttl)', async () => {
    const { lease, attempts } = flakyLease(Number.POSITIVE_INFINITY);
    await releaseLease(lease, 1_000, () => undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts).toEqual([0, 100, 300, 700, 1_500]);
    expect(attempts.every((at, i) => i === 0 || attempts[i - 1]! < 1_000)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
