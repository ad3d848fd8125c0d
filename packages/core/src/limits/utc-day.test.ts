import { describe, expect, it } from 'vitest';
import { secondsToUtcMidnight, utcDate, utcMidnight } from './utc-day.js';

describe('UTC days', () => {
  it('dates and midnights are UTC whatever the local zone', () => {
    const ms = Date.parse('2026-03-15T23:59:59.500Z');
    expect(utcDate(ms)).toBe('2026-03-15');
    expect(utcMidnight(ms)).toBe(Date.parse('2026-03-15T00:00:00Z'));
  });

  it('seconds to the next midnight round up and are never 0', () => {
    expect(secondsToUtcMidnight(Date.parse('2026-03-15T23:59:59.500Z'))).toBe(1);
    expect(secondsToUtcMidnight(Date.parse('2026-03-15T00:00:00Z'))).toBe(86_400);
    expect(secondsToUtcMidnight(Date.parse('2026-03-15T12:00:00.001Z'))).toBe(43_200);
  });
});
