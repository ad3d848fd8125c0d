/** Size and page limits of a record store. */
export interface StoreLimits {
  /** Largest `limit` a query may ask for (default 200). */
  maxQueryLimit: number;
  /** Largest single data value, as UTF-8 JSON bytes (default 2 MiB). */
  maxValueBytes: number;
  /** Largest record `data`, as UTF-8 JSON bytes (default 4 MiB). */
  maxRecordBytes: number;
}

export const DEFAULT_QUERY_LIMIT = 50;
export const MAX_IN_VALUES = 1000;
export const RECORD_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const COLLECTION_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const COLUMN_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Names of the envelope fields; columns may not use them. */
export const RESERVED_COLUMNS = ['recordId', 'createdAt', 'updatedAt'] as const;
