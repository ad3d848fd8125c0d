import type { FieldCondition, Filter, FilterValue } from '@chatwire/storage';
import { checkText } from './check-storable.js';
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
  const v = params.field(field);
  const parts: string[] = [];
  if (condition.eq !== undefined) parts.push(equals(params, v, condition.eq));
  if (condition.ne !== undefined) {
    parts.push(condition.ne === null ? `NOT ${ABSENT(v)}` : `${v} IS DISTINCT FROM ${params.json(condition.ne)}`);
  }
  if (condition.in !== undefined) {
    const ors = condition.in.map((operand) => equals(params, v, operand));
    parts.push(ors.length === 0 ? 'false' : `(${ors.join(' OR ')})`);
  }
  if (condition.exists !== undefined) parts.push(condition.exists ? `NOT ${ABSENT(v)}` : ABSENT(v));
  for (const [key, op] of RANGE_OPS) {
    const operand = condition[key];
    if (operand !== undefined) parts.push(range(params, v, field, op, operand));
  }
  return parts;
}

function checkOperand(operand: unknown, what: string): void {
  if (typeof operand === 'string') checkText(operand, what);
}

/** SQL conditions (to be ANDed) for `filter`; rejects unstorable strings with VALIDATION naming the field. */
export function buildFilterSql(params: SqlParams, collection: string, filter: Filter | undefined): string[] {
  if (!filter) return [];
  const parts: string[] = [];
  for (const field of Object.keys(filter)) {
    const value = filter[field];
    if (value === undefined) continue;
    const what = `collection ${JSON.stringify(collection)} filter on field ${JSON.stringify(field)}`;
    checkText(field, what);
    const condition = toCondition(value);
    for (const operand of [condition.eq, condition.ne, condition.gt, condition.gte, condition.lt, condition.lte]) {
      checkOperand(operand, what);
    }
    for (const operand of condition.in ?? []) checkOperand(operand, what);
    parts.push(...conditionSql(params, field, condition));
  }
  return parts;
}
