import type { Pool, PoolClient } from 'pg';
import type { SqlClient, SqlExecutor, SqlResult } from './sql-executor.js';

async function run<R extends object>(
  target: Pool | PoolClient,
  text: string,
  params: readonly (string | null)[] | undefined,
): Promise<SqlResult<R>> {
  const result = await target.query<R>(text, params === undefined ? [] : [...params]);
  return { rows: result.rows, rowCount: result.rowCount ?? 0 };
}

/** Adapts a `pg.Pool`. `owned`: the executor created the pool and ends it on `close()`. */
export function createPgPoolExecutor(pool: Pool, options: { owned: boolean }): SqlExecutor {
  return {
    query: (text, params) => run(pool, text, params),
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const bound: SqlClient = { query: (text, params) => run(client, text, params) };
        try {
          const value = await fn(bound);
          await client.query('COMMIT');
          return value;
        } catch (error) {
          try {
            await client.query('ROLLBACK');
          } catch (rollbackError) {
            // The connection is unusable: destroy it instead of returning it to the pool.
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          }
          throw error;
        }
      } finally {
        client.release(broken);
      }
    },
    async close() {
      if (options.owned) await pool.end();
    },
  };
}
