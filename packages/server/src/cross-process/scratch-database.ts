import { createPostgresExecutor, type SqlExecutor } from '@chatwire/postgres';

export interface StoredRow {
  recordId: string;
  data: Record<string, unknown>;
}

/** Raw SQL on the tables of one table prefix, outside any child server (to read rows, lock, terminate). */
export interface ScratchDatabase {
  sql: SqlExecutor;
  prefix: string;
  records: string;
  /** Rows of one collection of one chat (`chatId` null: the chat rows themselves), in insertion order. */
  rows(collection: string, chatId?: string): Promise<StoredRow[]>;
  /** Backend pids of an application_name, optionally only those waiting on a lock. */
  backends(applicationName: string, options?: { waitingOnLock?: boolean }): Promise<number[]>;
  terminate(pid: number): Promise<boolean>;
  drop(): Promise<void>;
}

export function scratchDatabase(url: string, prefix: string): ScratchDatabase {
  const sql = createPostgresExecutor({ connectionString: url, max: 3 });
  const records = `public."${prefix}records"`;
  return {
    sql,
    prefix,
    records,
    async rows(collection, chatId) {
      const result = await sql.query<{ record_id: string; data: Record<string, unknown> }>(
        chatId === undefined
          ? `SELECT record_id, data FROM ${records} WHERE collection = $1 ORDER BY seq`
          : `SELECT record_id, data FROM ${records} WHERE collection = $1 AND data->>'chatId' = $2 ORDER BY seq`,
        chatId === undefined ? [collection] : [collection, chatId],
      );
      return result.rows.map((row) => ({ recordId: row.record_id, data: row.data }));
    },
    async backends(applicationName, options = {}) {
      const result = await sql.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = $1 ${options.waitingOnLock ? "AND wait_event_type = 'Lock'" : ''}`,
        [applicationName],
      );
      return result.rows.map((row) => Number(row.pid));
    },
    async terminate(pid) {
      const result = await sql.query<{ ok: boolean }>('SELECT pg_terminate_backend($1::int) AS ok', [String(pid)]);
      return result.rows[0]?.ok === true;
    },
    async drop() {
      await sql.query(`DROP TABLE IF EXISTS ${records}, public."${prefix}leases"`);
      await sql.close();
    },
  };
}
