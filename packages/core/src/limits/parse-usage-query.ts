import { ChatwireError } from '@chatwire/storage';
import { DAY_MS, utcDate, utcMidnight } from './utc-day.js';

/** The widest range `GET /usage` answers, in days. */
export const MAX_USAGE_DAYS = 366;
const DEFAULT_DAYS = 30;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface UsageQuery {
  /** `YYYY-MM-DD`, UTC, inclusive (default: 29 days before `to`). */
  from?: string | null;
  /** `YYYY-MM-DD`, UTC, inclusive (default: today). */
  to?: string | null;
}

/** A validated range: UTC midnights, `toMs` exclusive (the midnight after `to`). */
export interface UsageRange {
  fromMs: number;
  toMs: number;
}

function invalid(message: string, field: string): never {
  throw new ChatwireError('VALIDATION', message, { details: { field } });
}

/** The UTC midnight of a `YYYY-MM-DD` calendar date; VALIDATION naming `field` for anything else. */
function parseDate(value: string, field: string): number {
  const match = DATE.exec(value);
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const ms = match ? new Date(0).setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || Number.isNaN(ms) || utcDate(ms) !== value) invalid(`'${field}' must be a date as YYYY-MM-DD, got '${value}'`, field);
  return ms;
}

/** Validates `from`/`to` of `GET /usage`: dates, `from` not after `to`, at most 366 days. */
export function parseUsageQuery(query: UsageQuery, now = Date.now()): UsageRange {
  const to = query.to ? parseDate(query.to, 'to') : utcMidnight(now);
  const from = query.from ? parseDate(query.from, 'from') : to - (DEFAULT_DAYS - 1) * DAY_MS;
  if (from > to) invalid(`'from' (${utcDate(from)}) must not be after 'to' (${utcDate(to)})`, 'from');
  const days = (to - from) / DAY_MS + 1;
  if (days > MAX_USAGE_DAYS) invalid(`'from'..'to' spans ${days} days; at most ${MAX_USAGE_DAYS} are allowed`, 'from');
  return { fromMs: from, toMs: to + DAY_MS };
}
