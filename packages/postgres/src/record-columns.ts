import type { RecordEnvelope } from '@chatwire/storage';
import { decodeData } from './check-storable.js';

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The select list every read uses: text only, so no type parser of `pg` or PGlite gets involved. */
// The aliases differ from the column names on purpose: a bare `ORDER BY created_at` would otherwise sort
// by the output text column (and `seq` as text, '10' < '9').
export const RECORD_COLUMNS = recordColumnsOf('');

/** `RECORD_COLUMNS` of a table aliased `alias` in a join (`alias.` before every column; '' for none). */
export function recordColumnsOf(alias: string): string {
  const c = alias === '' ? '' : `${alias}.`;
  return `${c}record_id, ${c}data::text AS data_text, ${iso(`${c}created_at`)} AS created_iso, ${iso(`${c}updated_at`)} AS updated_iso, ${c}seq::text AS seq_text`;
}

export interface RecordRow {
  record_id: string;
  data_text: string;
  created_iso: string;
  updated_iso: string;
  seq_text: string;
}

export function toEnvelope(row: RecordRow): RecordEnvelope {
  return {
    recordId: row.record_id,
    data: parseData(row.data_text),
    createdAt: row.created_iso,
    updatedAt: row.updated_iso,
  };
}

/** Parses stored data; unescapes U+0000/U+0001 (stored as `\u0001` escapes) only when some are there. */
export function parseData(text: string): Record<string, unknown> {
  const data = JSON.parse(text) as Record<string, unknown>;
  return text.includes('\\u0001') ? (decodeData(data) as Record<string, unknown>) : data;
}
