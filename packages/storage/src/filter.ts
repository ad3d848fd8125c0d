/**
 * Query filters on data fields. A bare value means `eq`. All conditions are ANDed.
 *
 * `{ chatId: 'c1', score: { gte: 3, lt: 10 }, tag: { in: ['a', 'b'] }, deletedAt: { exists: false } }`
 *
 * Semantics every driver shares (checked by `defineStoreContract`; reference implementation in
 * `filter-semantics.ts`):
 * - A missing field and a field holding `null` are the same thing everywhere (filters and ordering).
 * - `eq: v` matches values of the same JSON type that are equal (`1` never equals `'1'`); objects and
 *   arrays never equal a scalar. `eq: null` matches missing or null.
 * - `ne: v` is the exact negation of `eq: v` (SQL `IS DISTINCT FROM`): `ne: 'x'` also matches rows where
 *   the field is missing or null; `ne: null` matches rows where the field is present and not null.
 * - `in: [...]` matches when `eq` matches any element (`null` in the list matches missing); `in: []`
 *   matches nothing.
 * - `gt`/`gte`/`lt`/`lte` only match values of the operand's type (a number operand never matches a
 *   string value); missing/null never match. Numbers compare numerically; strings compare by Unicode code
 *   point (like PostgreSQL `COLLATE "C"` on UTF-8: `'B' < 'a'`, `'\uFFFF' < '\u{1F600}'`).
 * - `exists: true` matches present and non-null; `exists: false` missing or null.
 * - Several operators in one condition are ANDed.
 */
export type FilterValue = string | number | boolean | null;

export interface FieldCondition {
  eq?: FilterValue;
  ne?: FilterValue;
  gt?: string | number;
  gte?: string | number;
  lt?: string | number;
  lte?: string | number;
  in?: readonly FilterValue[];
  exists?: boolean;
}

export type Filter = Record<string, FilterValue | FieldCondition>;

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'exists'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/**
 * Ordering. `createdAt` (the default, ascending) is insertion order. For a data field: numbers
 * numerically, strings by code point, `false < true`; rows where the field is missing or null sort after
 * every value in `asc` and before every value in `desc` (PostgreSQL's default NULLS LAST / NULLS FIRST).
 * Equal keys are ordered by insertion; `desc` is the exact reverse of `asc`, ties included.
 */
export interface OrderBy {
  /** `createdAt` or a data field name. Ties are always broken by insertion order. */
  field: string;
  direction?: 'asc' | 'desc';
}
