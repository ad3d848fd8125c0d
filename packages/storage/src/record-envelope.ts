/**
 * A stored record as every read returns it: the id, the data fields, and ISO 8601 timestamps (UTC, ms
 * precision, e.g. `2025-01-01T00:00:00.000Z`) set by the driver.
 */
export interface RecordEnvelope<TData extends Record<string, unknown> = Record<string, unknown>> {
  recordId: string;
  data: TData;
  createdAt: string;
  updatedAt: string;
}

export type RecordData = Record<string, unknown>;
