import type { RecordData, RecordEnvelope } from '../record-envelope.js';
import { cloneJson } from '../json-value.js';

/** One stored row. The object is kept for the row's whole life (an undo revives the same object). */
export interface MemoryRow {
  readonly recordId: string;
  /** Monotonic insertion sequence, unique per driver. */
  readonly seq: number;
  data: RecordData;
  readonly createdAt: string;
  updatedAt: string;
}

export function toEnvelope(row: MemoryRow): RecordEnvelope {
  return { recordId: row.recordId, data: cloneJson(row.data), createdAt: row.createdAt, updatedAt: row.updatedAt };
}
