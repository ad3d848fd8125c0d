import type { FieldCondition, Filter, FilterValue } from './filter.js';
import type { RecordData } from './record-envelope.js';

/** Compares two strings by Unicode code point (UTF-8 byte order, PostgreSQL `COLLATE "C"`). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 puts surrogates (U+D800..DFFF, i.e. code points above U+FFFF) below U+E000..FFFF; fix that.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** A bare filter value means `eq`. */
export function toCondition(value: FilterValue | FieldCondition): FieldCondition {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { eq: value as FilterValue };
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** `eq` semantics: same JSON type and equal; `null` matches missing or null. */
export function scalarEquals(value: unknown, operand: FilterValue): boolean {
  if (operand === null) return isAbsent(value);
  return typeof value === typeof operand && value === operand;
}

function rangeCompare(value: unknown, operand: string | number): number | null {
  if (typeof operand === 'number') return typeof value === 'number' ? value - operand : null;
  return typeof value === 'string' ? compareCodePoints(value, operand) : null;
}

/** Whether a field value satisfies every operator of the condition. */
export function matchesCondition(value: unknown, condition: FieldCondition): boolean {
  if (condition.eq !== undefined && !scalarEquals(value, condition.eq)) return false;
  if (condition.ne !== undefined && scalarEquals(value, condition.ne)) return false;
  if (condition.in !== undefined && !condition.in.some((operand) => scalarEquals(value, operand))) return false;
  if (condition.exists !== undefined && isAbsent(value) === condition.exists) return false;
  let c: number | null;
  if (condition.gt !== undefined && ((c = rangeCompare(value, condition.gt)) === null || c <= 0)) return false;
  if (condition.gte !== undefined && ((c = rangeCompare(value, condition.gte)) === null || c < 0)) return false;
  if (condition.lt !== undefined && ((c = rangeCompare(value, condition.lt)) === null || c >= 0)) return false;
  if (condition.lte !== undefined && ((c = rangeCompare(value, condition.lte)) === null || c > 0)) return false;
  return true;
}

/** Whether a record's data satisfies every condition of the filter. */
export function matchesFilter(data: RecordData, filter: Filter | undefined): boolean {
  if (!filter) return true;
  for (const field in filter) {
    const condition = filter[field];
    if (condition === undefined) continue;
    if (!matchesCondition(data[field], toCondition(condition))) return false;
  }
  return true;
}

/** Sort rank of a value's type: numbers, strings, booleans, other JSON, then missing/null last. */
export function sortTypeRank(value: unknown): number {
  switch (typeof value) {
    case 'number':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
    default:
      return isAbsent(value) ? 4 : 3;
  }
}

/**
 * Ascending order of two field values: numbers numerically, strings by code point, false < true,
 * missing/null after everything. Mixed types (only possible in `json` columns, which the access layer
 * does not let you order by) rank number < string < boolean < object/array.
 */
export function compareSortValues(a: unknown, b: unknown): number {
  const ra = sortTypeRank(a);
  const rb = sortTypeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return 0;
}
