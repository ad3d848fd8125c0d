import type { RecordEnvelope } from '@chatwire/storage';
import { decodeData } from './check-storable.js';

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The select list every read uses: text only, so no type parser of `pg` or PGlite gets involved. */
export const RECORD_COLUMNS = `record_id, data::text AS data, ${iso('created_at')} AS created_at, ${iso('updated_at')} AS updated_at, seq::text AS seq`;

export interface RecordRow {
  record_id: string;
  data: string;
  created_at: string;
  updated_at: string;
  seq: string;
}

export function toEnvelope(row: RecordRow): RecordEnvelope {
  return {
    recordId: row.record_id,
    data: parseData(row.data),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Parses stored data; unescapes U+0000/U+0001 (stored as `\u0001` escapes) only when some are there. */
export function parseData(text: string): Record<string, unknown> {
  const data = JSON.parse(text) as Record<string, unknown>;
  return text.includes('\\u0001') ? (decodeData(data) as Record<string, unknown>) : data;
}
