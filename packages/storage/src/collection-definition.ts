/**
 * A collection: a schema (columns) and access rules.
 *
 * Rules: `false` nobody but server code; `true` any signed-in caller; `'own'` the caller owns the row
 * (the row's `ownerField`, default `userId`, equals `caller.userId`); a list of roles: callers whose
 * `role` is in the list.
 */
export type ColumnType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'json';

export interface ColumnDefinition {
  name: string;
  type: ColumnType;
  required?: boolean;
  /** Human description shown by `schema.describe`. */
  description?: string;
  /** For strings: maximum length in characters (default: the store's `maxValueBytes`). */
  maxLength?: number;
}

export type Rule = boolean | 'own' | readonly string[];

export interface CollectionRules {
  read: Rule;
  create: Rule;
  update: Rule;
  delete: Rule;
}

export interface CollectionDefinition {
  name: string;
  columns: readonly ColumnDefinition[];
  rules: CollectionRules;
  /** Data field holding the owner's user id, used by `'own'` rules. Default `userId`. */
  ownerField?: string;
  /** Hidden collections are not offered to the tool catalog (the `ai-*` collections are hidden). */
  hidden?: boolean;
  description?: string;
}
