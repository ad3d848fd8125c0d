import type { FieldCondition, Filter, FilterValue } from '@chatwire/storage';
import { encodeText } from './check-storable.js';
import type { SqlParams } from './sql-params.js';

/**
 * Turns a filter into SQL conditions with the shared semantics (`filter.ts` in @chatwire/storage):
 * missing and null are the same; `eq` needs the same JSON type (jsonb equality gives exactly that);
 * `ne` is its negation; ranges only match the operand's type; strings compare by code point.
 */
function toCondition(value: FilterValue | FieldCondition): FieldCondition {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { eq: value as FilterValue };
}

const ABSENT = (v: string) => `(${v} IS NULL OR ${v} = 'null'::jsonb)`;

function equals(params: SqlParams, v: string, operand: FilterValue): string {
  return operand === null ? ABSENT(v) : `${v} = ${params.json(operand)}`;
}

function range(params: SqlParams, v: string, field: string, op: string, operand: string | number): string {
  if (typeof operand === 'number') {
    // jsonb orders numbers numerically; the type guard keeps other types out.
    return `(jsonb_typeof(${v}) = 'number' AND ${v} ${op} ${params.json(operand)})`;
  }
  const text = `(data->>${params.add(field)}::text)`;
  return `(jsonb_typeof(${v}) = 'string' AND ${text} COLLATE "C" ${op} ${params.add(operand)}::text COLLATE "C")`;
}

const RANGE_OPS = [
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
] as const;

function conditionSql(params: SqlParams, field: string, condition: FieldCondition): string[] {
  let column: string | undefined;
  const v = () => (column ??= params.field(field)); // only bound when used (`in: []` uses nothing)
  const parts: string[] = [];
  if (condition.eq !== undefined) parts.push(equals(params, v(), condition.eq));
  if (condition.ne !== undefined) {
    parts.push(condition.ne === null ? `NOT ${ABSENT(v())}` : `${v()} IS DISTINCT FROM ${params.json(condition.ne)}`);
  }
  if (condition.in !== undefined) {
    const ors = condition.in.map((operand) => equals(params, v(), operand));
    parts.push(ors.length === 0 ? 'false' : `(${ors.join(' OR ')})`);
  }
  if (condition.exists !== undefined) parts.push(condition.exists ? `NOT ${ABSENT(v())}` : ABSENT(v()));
  for (const [key, op] of RANGE_OPS) {
    const operand = condition[key];
    if (operand !== undefined) parts.push(range(params, v(), field, op, operand));
  }
  return parts;
}

/** Field names and string operands as stored (see `check-storable.ts`): U+0000 escaped, lone surrogates rejected. */
function encodeCondition(condition: FieldCondition, what: string, field: string): FieldCondition {
  const enc = <T>(operand: T): T => (typeof operand === 'string' ? (encodeText(operand, what, field) as T) : operand);
  const out: FieldCondition = {};
  for (const key of ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const) {
    if (condition[key] !== undefined) (out as Record<string, unknown>)[key] = enc(condition[key]);
  }
  if (condition.in !== undefined) out.in = condition.in.map(enc);
  if (condition.exists !== undefined) out.exists = condition.exists;
  return out;
}

/** SQL conditions (to be ANDed) for `filter`. */
export function buildFilterSql(params: SqlParams, collection: string, filter: Filter | undefined): string[] {
  if (!filter) return [];
  const parts: string[] = [];
  for (const field of Object.keys(filter)) {
    const value = filter[field];
    if (value === undefined) continue;
    const what = `collection ${JSON.stringify(collection)} filter on field ${JSON.stringify(field)}`;
    const stored = encodeText(field, what, field);
    parts.push(...conditionSql(params, stored, encodeCondition(toCondition(value), what, field)));
  }
  return parts;
}
