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
  return { recordId: row.recordId, data: copyData(row.data), createdAt: row.createdAt, updatedAt: row.updatedAt };
}

/**
 * `cloneJson(data)`, one loop without a call per field for the common flat row (a chat: strings only);
 * anything nested, or a `__proto__` key, takes `cloneJson`.
 */
function copyData(data: RecordData): RecordData {
  const out: RecordData = {};
  for (const key in data) {
    const value = data[key];
    if (value === undefined) continue;
    if ((typeof value === 'object' && value !== null) || key === '__proto__') return cloneJson(data);
    out[key] = value;
  }
  return out;
}
