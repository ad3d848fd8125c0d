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

/** A driver's search cursor, or VALIDATION when it is not one. */
export function decodeSearchCursor(cursor: string): SearchPosition {
  const value = decodeCursor(cursor) as { r?: unknown; s?: unknown } | null;
  if (
    typeof value !== 'object' ||
    value === null ||
    !Number.isSafeInteger(value.r) ||
    (value.r as number) < 0 ||
    typeof value.s !== 'string' ||
    !/^[0-9]{1,19}$/.test(value.s)
  ) {
    throw new ChatwireError('VALIDATION', 'malformed search cursor', { details: { field: 'cursor' } });
  }
  return { rank: value.r as number, seq: value.s };
}

/** Whether a hit at (rank, seq) comes after `position` in search order. */
export function isAfter(position: SearchPosition, rank: number, seq: number): boolean {
  return rank < position.rank || (rank === position.rank && seq < Number(position.seq));
}
