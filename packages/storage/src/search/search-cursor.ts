import { ChatwireError } from '../chatwire-error.js';
import { decodeCursor, encodeCursor } from '../base64url.js';

/** Where a page of search hits ended: hits go by rank (higher first), then by insertion sequence (newer first). */
export interface SearchPosition {
  rank: number;
  /** The row's insertion sequence, as decimal digits (a SQL bigint does not fit a JavaScript number). */
  seq: string;
}

export function encodeSearchCursor(position: SearchPosition): string {
  return encodeCursor({ r: position.rank, s: position.seq });
}

/** The largest SQL bigint: no row's insertion sequence is above it. */
const MAX_SEQ = '9223372036854775807';

/** Decimal digits of a bigint that is not negative (up to 19 digits, the longest at most `MAX_SEQ`). */
function isSeq(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9]{1,19}$/.test(value) && (value.length < MAX_SEQ.length || value <= MAX_SEQ);
}

/**
 * A driver's search cursor, or VALIDATION when it is not one: a rank that is not what the encoder writes
 * (a safe integer, not negative) or a seq past the bigint range is refused here, never handed to a driver.
 */
export function decodeSearchCursor(cursor: string): SearchPosition {
  const value = decodeCursor(cursor) as { r?: unknown; s?: unknown } | null;
  if (typeof value !== 'object' || value === null || !Number.isSafeInteger(value.r) || (value.r as number) < 0 || !isSeq(value.s)) {
    throw new ChatwireError('VALIDATION', 'malformed search cursor', { details: { field: 'cursor' } });
  }
  return { rank: value.r as number, seq: value.s };
}

/** Whether a hit at (rank, seq) comes after `position` in search order. */
export function isAfter(position: SearchPosition, rank: number, seq: number): boolean {
  return rank < position.rank || (rank === position.rank && seq < Number(position.seq));
}
