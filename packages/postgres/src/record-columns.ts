import type { RecordEnvelope } from '@chatwire/storage';

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
    data: JSON.parse(row.data) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
