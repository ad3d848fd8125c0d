import { ChatwireError } from '@chatwire/storage';
import type { OrderBy } from '@chatwire/storage';
import { UNSTORABLE } from './check-storable.js';
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
  v?: string | number | boolean;
  /** seq of the last row, as a decimal string. */
  s: string;
}

export function sortRank(value: unknown): number {
  switch (typeof value) {
    case 'number':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
    default:
      return value === null || value === undefined ? 4 : 3;
  }
}

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

function typedValueSql(v: string, rank: number): string | null {
  return rank === 0 ? numSql(v) : rank === 1 ? strSql(v) : rank === 2 ? boolSql(v) : null;
}

function typedParam(params: SqlParams, rank: number, value: unknown): string {
  if (rank === 0) return `(${params.json(value)})::numeric`;
  if (rank === 1) return `${params.add(String(value))}::text COLLATE "C"`;
  return `${params.add(String(value))}::boolean`;
}

export function buildOrderSql(params: SqlParams, order: Required<OrderBy>, cursor: CursorState | null): OrderSql {
  const dir = order.direction === 'desc' ? 'DESC' : 'ASC';
  const gt = dir === 'ASC' ? '>' : '<';
  if (order.field === 'createdAt') {
    const after =
      cursor === null
        ? null
        : `(created_at, seq) ${gt} (${params.add(cursor.t ?? '')}::timestamptz, ${params.add(cursor.s)}::bigint)`;
    return { orderBy: `created_at ${dir}, seq ${dir}`, after };
  }
  const v = params.field(order.field);
  const orderBy = [rankSql(v), numSql(v), strSql(v), boolSql(v), 'seq'].map((key) => `${key} ${dir}`).join(', ');
  if (cursor === null) return { orderBy, after: null };
  const rank = cursor.r ?? 4;
  const seq = `seq ${gt} ${params.add(cursor.s)}::bigint`;
  const rankParam = `${params.add(String(rank))}::int`;
  const typed = typedValueSql(v, rank);
  const sameRank =
    typed === null
      ? seq
      : `(${typed} ${gt} ${typedParam(params, rank, cursor.v)} OR (${typed} = ${typedParam(params, rank, cursor.v)} AND ${seq}))`;
  return { orderBy, after: `(${rankSql(v)} ${gt} ${rankParam} OR (${rankSql(v)} = ${rankParam} AND ${sameRank}))` };
}

/** The cursor pointing after `row`. */
export function cursorAfter(
  order: Required<OrderBy>,
  row: { createdAt: string; seq: string; data: Record<string, unknown> },
): CursorState {
  if (order.field === 'createdAt') return { o: order.field, d: order.direction, t: row.createdAt, s: row.seq };
  const value = row.data[order.field];
  const r = sortRank(value);
  const state: CursorState = { o: order.field, d: order.direction, r, s: row.seq };
  if (r <= 2) state.v = value as string | number | boolean;
  return state;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Checks a decoded cursor against the query it is used with. */
export function checkCursor(state: unknown, order: Required<OrderBy>, collection: string): CursorState {
  const bad = () =>
    new ChatwireError('VALIDATION', `collection ${JSON.stringify(collection)}: invalid cursor for this query`, {
      details: { collection, field: 'cursor' },
    });
  if (typeof state !== 'object' || state === null) throw bad();
  const c = state as Partial<CursorState>;
  if (c.o !== order.field || c.d !== order.direction || typeof c.s !== 'string' || !/^\d{1,19}$/.test(c.s)) throw bad();
  if (order.field === 'createdAt') {
    if (typeof c.t !== 'string' || !ISO_MS.test(c.t) || Number.isNaN(Date.parse(c.t))) throw bad();
    return c as CursorState;
  }
  const r = c.r;
  if (typeof r !== 'number' || !Number.isInteger(r) || r < 0 || r > 4) throw bad();
  const expected = ['number', 'string', 'boolean'][r];
  if (expected !== undefined && typeof c.v !== expected) throw bad();
  if (typeof c.v === 'number' && !Number.isFinite(c.v)) throw bad();
  if (typeof c.v === 'string' && UNSTORABLE.test(c.v)) throw bad();
  return c as CursorState;
}
