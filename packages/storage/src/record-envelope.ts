/** A stored record as every read returns it (spec 2.1). Timestamps are ISO 8601 strings (UTC, ms precision). */
export interface RecordEnvelope<TData extends Record<string, unknown> = Record<string, unknown>> {
  recordId: string;
  data: TData;
  createdAt: string;
  updatedAt: string;
}

export type RecordData = Record<string, unknown>;
