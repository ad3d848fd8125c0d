import { ChatwireError, sortTypeRank } from '@chatwire/storage';
import type { OrderBy } from '@chatwire/storage';
import { encodeText } from './check-storable.js';
import type { SqlParams } from './sql-params.js';

/**
 * Ordering and keyset cursors. `createdAt` orders by (created_at, seq); a data field by the shared sort
 * key: type rank (number < string < boolean < object/array < missing/null), then the typed value
 * (strings COLLATE "C"), then seq. `desc` reverses every key, so it is the exact reverse of `asc`.
 */
export interface CursorState {
  /** Order field and direction the cursor belongs to. */
  o: string;
  d: 'asc' | 'desc';
  /** created_at (ISO) for `createdAt`; otherwise the sort value's rank and value. */
  t?: string;
  r?: number;
  /** The sort value; for a long string only its first LONG_PREFIX code points (then `x` is true). */
  v?: string | number | boolean;
  x?: boolean;
  /** seq of the last row, as a decimal string. */
  s: string;
}

/**
 * A string sort value longer than LONG_BYTES (as UTF-8 JSON) is not copied whole into the cursor (the access
 * layer caps cursors at 4 KiB): the cursor keeps its first LONG_PREFIX code points and the next page
 * reads the full value back from the cursor's row. Should that row have changed in between, the prefix
 * stands in for it: rows sharing the prefix may then repeat, but none is skipped.
 */
const LONG_BYTES = 1024;
const LONG_PREFIX = 128;


const rankSql = (v: string) =>
  `(CASE jsonb_typeof(${v}) WHEN 'number' THEN 0 WHEN 'string' THEN 1 WHEN 'boolean' THEN 2 WHEN 'object' THEN 3 WHEN 'array' THEN 3 ELSE 4 END)`;
const numSql = (v: string) => `(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric END)`;
const strSql = (v: string) => `(CASE WHEN jsonb_typeof(${v}) = 'string' THEN (${v}) #>> '{}' END) COLLATE "C"`;
const boolSql = (v: string) => `(CASE WHEN jsonb_typeof(${v}) = 'boolean' THEN (${v})::boolean END)`;

export interface OrderSql {
  /** The ORDER BY list. */
  orderBy: string;
  /** Keyset condition for rows after the cursor, or null without a cursor. */
  after: string | null;
}

/** The cursor's sort value as SQL of the same type as the row's typed sort key. */
function cursorValueSql(params: SqlParams, cursor: CursorState, storedField: string, tables: { records: string; collection: string }): string {
  const rank = cursor.r;
  if (rank === 0) return `(${params.json(cursor.v)})::numeric`;
  if (rank === 2) return `${params.add(String(cursor.v))}::boolean`;
  // A long-string cursor already holds stored (escaped) text; a short one holds the value as read.
  const prefix = params.add(cursor.x ? String(cursor.v) : encodeText(String(cursor.v), 'cursor'));
  if (!cursor.x) return `${prefix}::text COLLATE "C"`;
  // A long string: read the full value back from the cursor's row, unless it changed (then the prefix).
  const f = params.add(storedField);
  return `COALESCE((SELECT c.data->>${f}::text FROM ${tables.records} c
      WHERE c.collection = ${tables.collection} AND c.seq = ${params.add(cursor.s)}::bigint
        AND jsonb_typeof(c.data->${f}::text) = 'string' AND left(c.data->>${f}::text, ${LONG_PREFIX}) = ${prefix}::text),
    ${prefix}::text) COLLATE "C"`;
}

/**
 * `storedField` is the field name as stored (escaped); `collectionParam` the placeholder already bound
 * to the collection; `records` the quoted table name.
 */
export function buildOrderSql(
  params: SqlParams,
  order: Required<OrderBy>,
  cursor: CursorState | null,
  storedField: string,
  tables: { records: string; collection: string },
): OrderSql {
  const dir = order.direction === 'desc' ? 'DESC' : 'ASC';
  const gt = dir === 'ASC' ? '>' : '<';
  if (order.field === 'createdAt') {
    const after =
      cursor === null
        ? null
        : `(created_at, seq) ${gt} (${params.add(cursor.t ?? '')}::timestamptz, ${params.add(cursor.s)}::bigint)`;
    return { orderBy: `created_at ${dir}, seq ${dir}`, after };
  }
  const v = params.field(storedField);
  const orderBy = [rankSql(v), numSql(v), strSql(v), boolSql(v), 'seq'].map((key) => `${key} ${dir}`).join(', ');
  if (cursor === null) return { orderBy, after: null };
  const rank = cursor.r ?? 4;
  const seq = `seq ${gt} ${params.add(cursor.s)}::bigint`;
  const rankParam = `${params.add(String(rank))}::int`;
  const typed = rank === 0 ? numSql(v) : rank === 1 ? strSql(v) : rank === 2 ? boolSql(v) : null;
  let sameRank = seq;
  if (typed !== null) {
    const value = cursorValueSql(params, cursor, storedField, tables);
    sameRank = `(${typed} ${gt} ${value} OR (${typed} = ${value} AND ${seq}))`;
  }
  return { orderBy, after: `(${rankSql(v)} ${gt} ${rankParam} OR (${rankSql(v)} = ${rankParam} AND ${sameRank}))` };
}

/** The cursor pointing after `row` (`data` as returned to the caller, unescaped). */
export function cursorAfter(
  order: Required<OrderBy>,
  row: { createdAt: string; seq: string; data: Record<string, unknown> },
): CursorState {
  if (order.field === 'createdAt') return { o: order.field, d: order.direction, t: row.createdAt, s: row.seq };
  const value = Object.prototype.hasOwnProperty.call(row.data, order.field) ? row.data[order.field] : undefined;
  const r = sortTypeRank(value);
  const state: CursorState = { o: order.field, d: order.direction, r, s: row.seq };
  if (typeof value === 'string') {
    const stored = encodeText(value, 'cursor');
    if (new TextEncoder().encode(JSON.stringify(value)).length > LONG_BYTES) {
      const points = Array.from(stored);
      // The prefix of the stored (escaped) text, so the database can compare it with `left()`.
      state.v = points.slice(0, LONG_PREFIX).join('');
      state.x = true;
      return state;
    }
  }
  if (r <= 2) state.v = value as string | number | boolean;
  return state;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Checks a decoded cursor against the query it is used with. */
export function checkCursor(state: unknown, order: Required<OrderBy>, collection: string): CursorState {
  const bad = () =>
    new ChatwireError('VALIDATION', `Invalid cursor for collection ${JSON.stringify(collection)}`, {
      details: { collection, field: 'cursor' },
    });
  if (typeof state !== 'object' || state === null) throw bad();
  const c = state as Partial<CursorState>;
  if (c.o !== order.field || c.d !== order.direction || typeof c.s !== 'string' || !/^\d{1,18}$/.test(c.s)) throw bad();
  if (order.field === 'createdAt') {
    if (typeof c.t !== 'string' || !ISO_MS.test(c.t) || Number.isNaN(Date.parse(c.t))) throw bad();
    return { o: c.o, d: c.d, t: c.t, s: c.s };
  }
  const r = c.r;
  if (typeof r !== 'number' || !Number.isInteger(r) || r < 0 || r > 4) throw bad();
  const expected = ['number', 'string', 'boolean'][r];
  if (expected !== undefined && typeof c.v !== expected) throw bad();
  if (typeof c.v === 'number' && !Number.isFinite(c.v)) throw bad();
  if (typeof c.v === 'string') {
    if (c.x === true && c.v.includes('\u0000')) throw bad();
    try {
      encodeText(c.v, 'cursor');
    } catch {
      throw bad();
    }
  }
  return { o: c.o, d: c.d, r, s: c.s, ...(expected === undefined ? {} : { v: c.v }), ...(c.x === true ? { x: true } : {}) };
}
