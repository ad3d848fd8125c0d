import { describe, expect, it } from 'vitest';
import { parseUsageQuery } from './parse-usage-query.js';

const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
const NOW = Date.parse('2026-03-15T13:45:00Z');

describe('parseUsageQuery', () => {
  it('defaults to the 30 days ending today (UTC), the end exclusive', () => {
    expect(parseUsageQuery({}, NOW)).toEqual({ fromMs: day('2026-02-14'), toMs: day('2026-03-16') });
    expect(parseUsageQuery({ from: null, to: '' }, NOW)).toEqual({ fromMs: day('2026-02-14'), toMs: day('2026-03-16') });
  });

  it('a given range covers from..to inclusive; from alone ends today, to alone starts 29 days before', () => {
    expect(parseUsageQuery({ from: '2026-03-01', to: '2026-03-01' }, NOW)).toEqual({ fromMs: day('2026-03-01'), toMs: day('2026-03-02') });
    expect(parseUsageQuery({ from: '2026-03-10' }, NOW)).toEqual({ fromMs: day('2026-03-10'), toMs: day('2026-03-16') });
    expect(parseUsageQuery({ to: '2024-03-01' }, NOW)).toEqual({ fromMs: day('2024-02-01'), toMs: day('2024-03-02') });
  });

  it('years 0000-0099 are the dates they say (Date.UTC would read them as 1900-1999)', () => {
    expect(parseUsageQuery({ from: '0001-01-01', to: '0001-01-02' }, NOW)).toEqual({ fromMs: Date.parse('0001-01-01T00:00:00Z'), toMs: Date.parse('0001-01-03T00:00:00Z') });
    expect(parseUsageQuery({ from: '0000-12-31', to: '0000-12-31' }, NOW).fromMs).toBe(Date.parse('0000-12-31T00:00:00Z'));
    expect(() => parseUsageQuery({ to: '0099-02-29' }, NOW)).toThrow(expect.objectContaining({ code: 'VALIDATION', details: { field: 'to' } }));
  });

  it.each([
    [{ from: '2026-02-29' }, 'from'],
    [{ from: '2026-3-1' }, 'from'],
    [{ from: '2026-03-01T00:00:00Z' }, 'from'],
    [{ to: '20260301' }, 'to'],
    [{ to: '2026-00-10' }, 'to'],
    [{ from: '2026-03-02', to: '2026-03-01' }, 'from'],
    [{ from: '2024-01-01', to: '2025-01-01' }, 'from'],
  ])('%j is a VALIDATION error naming %s', (query, field) => {
    expect(() => parseUsageQuery(query, NOW)).toThrow(expect.objectContaining({ code: 'VALIDATION', details: { field } }));
  });

  it('366 days is the widest range (a leap year)', () => {
    expect(parseUsageQuery({ from: '2024-01-01', to: '2024-12-31' }, NOW).toMs - day('2024-01-01')).toBe(366 * 86_400_000);
  });
});
