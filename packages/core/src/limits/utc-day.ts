const DAY_MS = 86_400_000;

/** The UTC calendar date of `ms` as `YYYY-MM-DD`. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Milliseconds of the UTC midnight that starts the day of `ms`. */
export function utcMidnight(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Whole seconds from `ms` to the next UTC midnight (at least 1). */
export function secondsToUtcMidnight(ms: number): number {
  return Math.max(1, Math.ceil((utcMidnight(ms) + DAY_MS - ms) / 1000));
}

export { DAY_MS };
