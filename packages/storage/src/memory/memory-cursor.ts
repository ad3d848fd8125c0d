import { ChatwireError } from '../chatwire-error.js';
import { decodeCursor, encodeCursor } from '../base64url.js';
import type { MemoryRow } from './memory-row.js';

/** Keyset position: the sort key and sequence of the last row of a page. */
export interface MemoryCursor {
  key: unknown;
  seq: number;
}

interface CursorPayload {
  v: 1;
  o: string;
  d: 'asc' | 'desc';
  k?: unknown;
  s: number;
}

export function encodeMemoryCursor(row: MemoryRow, field: string, direction: 'asc' | 'desc'): string {
  const payload: CursorPayload = { v: 1, o: field, d: direction, s: row.seq };
  if (field !== 'createdAt') payload.k = row.data[field] ?? null;
  return encodeCursor(payload);
}

export function decodeMemoryCursor(
  collection: string,
  cursor: string,
  field: string,
  direction: 'asc' | 'desc',
): MemoryCursor {
  const payload = decodeCursor(cursor) as Partial<CursorPayload> | null;
  const bad = (why: string) =>
    new ChatwireError('VALIDATION', `Invalid cursor for collection "${collection}": ${why}`, {
      details: { collection, field: 'cursor' },
    });
  if (typeof payload !== 'object' || payload === null || payload.v !== 1) throw bad('malformed');
  if (typeof payload.s !== 'number' || !Number.isSafeInteger(payload.s)) throw bad('malformed');
  if (payload.o !== field || payload.d !== direction) throw bad('it belongs to a query with another order');
  return { key: payload.k ?? null, seq: payload.s };
}
