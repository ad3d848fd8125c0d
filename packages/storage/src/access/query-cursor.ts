import { decodeCursor, encodeCursor } from '../base64url.js';
import { canonicalJson } from '../json-value.js';
import { invalid } from './errors.js';

/** FNV-1a, twice with different seeds: a 64-bit fingerprint that only has to catch mistakes. */
function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(36) + (b >>> 0).toString(36);
}

/**
 * The access layer wraps each driver cursor with a fingerprint of the query it belongs to (collection,
 * effective filter including the caller's owner filter, order). A cursor from another query, collection
 * or caller is rejected with VALIDATION instead of silently paging something else.
 */
export function queryFingerprint(collection: string, filter: unknown, field: string, direction: string): string {
  return fingerprint(canonicalJson([collection, filter, field, direction]));
}

export function wrapCursor(fp: string, driverCursor: string | null): string | null {
  return driverCursor === null ? null : encodeCursor({ q: fp, c: driverCursor });
}

export function unwrapCursor(collection: string, fp: string, cursor: unknown): string | undefined {
  if (cursor === undefined || cursor === null) return undefined;
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 4096) {
    throw invalid(collection, 'cursor', 'cursor must be a string from a previous page');
  }
  const payload = decodeCursor(cursor) as { q?: unknown; c?: unknown } | null;
  if (typeof payload !== 'object' || payload === null || typeof payload.q !== 'string' || typeof payload.c !== 'string') {
    throw invalid(collection, 'cursor', 'malformed cursor');
  }
  if (payload.q !== fp) throw invalid(collection, 'cursor', 'cursor belongs to another query');
  return payload.c;
}
