/**
 * Query filters on data fields. A bare value means `eq`. All conditions are ANDed.
 *
 * `{ chatId: 'c1', score: { gte: 3, lt: 10 }, tag: { in: ['a', 'b'] }, deletedAt: { exists: false } }`
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

export interface OrderBy {
  /** `createdAt` or a data field name. Ties are always broken by insertion order. */
  field: string;
  direction?: 'asc' | 'desc';
}
