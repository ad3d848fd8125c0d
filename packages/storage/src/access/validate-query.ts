import type { CollectionDefinition, ColumnDefinition } from '../collection-definition.js';
import { FILTER_OPERATORS, type FieldCondition, type Filter, type FilterValue, type OrderBy } from '../filter.js';
import { isPlainObject } from '../json-value.js';
import { invalid } from './errors.js';
import { DEFAULT_QUERY_LIMIT, MAX_IN_VALUES, type StoreLimits } from './store-limits.js';

const ORDERABLE_COLUMNS = ['string', 'number', 'boolean'];

function isScalar(value: unknown): value is FilterValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function checkEqOperand(name: string, column: ColumnDefinition, op: string, operand: unknown): FilterValue {
  if (!isScalar(operand)) throw invalid(name, column.name, `operator "${op}" needs a string, number, boolean or null`);
  const fits = operand === null || column.type === 'json' || typeof operand === column.type;
  if (!fits) throw invalid(name, column.name, `operator "${op}" on ${column.type} field "${column.name}" got a ${typeof operand}`);
  return operand;
}

function checkRangeOperand(name: string, column: ColumnDefinition, op: string, operand: unknown): string | number {
  const allowed = column.type === 'json' ? ['string', 'number'] : column.type === 'string' || column.type === 'number' ? [column.type] : [];
  if (allowed.length === 0) throw invalid(name, column.name, `operator "${op}" is not supported on ${column.type} field "${column.name}"`);
  if (!isScalar(operand) || operand === null || !allowed.includes(typeof operand)) {
    throw invalid(name, column.name, `operator "${op}" on field "${column.name}" needs a ${allowed.join(' or ')}`);
  }
  return operand as string | number;
}

function checkCondition(name: string, column: ColumnDefinition, raw: Record<string, unknown>): FieldCondition {
  const condition: FieldCondition = {};
  for (const [op, operand] of Object.entries(raw)) {
    if (operand === undefined) continue;
    if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
      throw invalid(name, column.name, `unknown filter operator "${op}" (use ${FILTER_OPERATORS.join(', ')})`);
    }
    if (op === 'exists') {
      if (typeof operand !== 'boolean') throw invalid(name, column.name, 'operator "exists" needs true or false');
      condition.exists = operand;
    } else if (op === 'in') {
      if (!Array.isArray(operand)) throw invalid(name, column.name, 'operator "in" needs an array');
      if (operand.length > MAX_IN_VALUES) throw invalid(name, column.name, `operator "in" takes at most ${MAX_IN_VALUES} values`);
      condition.in = operand.map((v: unknown) => checkEqOperand(name, column, 'in', v));
    } else if (op === 'eq' || op === 'ne') {
      condition[op] = checkEqOperand(name, column, op, operand);
    } else {
      condition[op as 'gt'] = checkRangeOperand(name, column, op, operand);
    }
  }
  if (Object.keys(condition).length === 0) throw invalid(name, column.name, 'filter condition has no operator');
  return condition;
}

/** Validates a filter against the columns; every entry comes back as a `FieldCondition`. */
export function validateFilter(def: CollectionDefinition, filter: unknown): Record<string, FieldCondition> {
  const name = def.name;
  if (filter === undefined || filter === null) return {};
  if (!isPlainObject(filter)) throw invalid(name, undefined, 'filter must be an object');
  const out: Record<string, FieldCondition> = {};
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    const column = def.columns.find((c) => c.name === field);
    if (!column) throw invalid(name, field, `unknown field "${field}" in filter`);
    if (isPlainObject(value)) out[field] = checkCondition(name, column, value);
    else if (isScalar(value)) out[field] = { eq: checkEqOperand(name, column, 'eq', value) };
    else throw invalid(name, field, `filter on "${field}" must be a value or a condition object (arrays need "in")`);
  }
  return out;
}

export function validateOrderBy(def: CollectionDefinition, orderBy: unknown): Required<OrderBy> {
  const name = def.name;
  if (orderBy === undefined || orderBy === null) return { field: 'createdAt', direction: 'asc' };
  if (!isPlainObject(orderBy)) throw invalid(name, 'orderBy', 'orderBy must be { field, direction? }');
  const { field, direction = 'asc' } = orderBy as { field?: unknown; direction?: unknown };
  if (direction !== 'asc' && direction !== 'desc') throw invalid(name, 'orderBy', 'orderBy.direction must be "asc" or "desc"');
  if (field === 'createdAt') return { field, direction };
  const column = def.columns.find((c) => c.name === field);
  if (typeof field !== 'string' || !column) throw invalid(name, String(field), `cannot order by unknown field "${String(field)}"`);
  if (!ORDERABLE_COLUMNS.includes(column.type)) {
    throw invalid(name, field, `cannot order by ${column.type} field "${field}"`);
  }
  return { field, direction };
}

export function validateLimit(collection: string, limit: unknown, limits: StoreLimits): number {
  if (limit === undefined) return DEFAULT_QUERY_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > limits.maxQueryLimit) {
    throw invalid(collection, 'limit', `limit must be an integer from 1 to ${limits.maxQueryLimit}`);
  }
  return limit;
}

export type { Filter };
