import pg from 'pg';
import { ChatwireError } from '@chatwire/storage';
import type { Pool, PoolClient } from 'pg';
import { connectionLost, isConnectionLost } from './connection-lost.js';
import { createPgListener } from './create-pg-listener.js';
import type { SqlClient, SqlExecutor, SqlResult, SqlValue } from './sql-executor.js';

export interface PgPoolExecutorOptions {
  /** The executor created the pool: `close()` ends it. */
  owned: boolean;
  /**
   * Connection errors that have no statement to reject: idle pooled connections, a connection checked
   * out by a transaction between two statements, the listening connection. Default: ignored.
   */
  onError?: ((error: unknown) => void) | undefined;
}

async function run<R extends object>(
  target: Pool | PoolClient,
  text: string,
  params: readonly SqlValue[] | undefined,
): Promise<SqlResult<R>> {
  try {
    const result = await target.query<R>(text, params === undefined ? [] : [...params]);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  } catch (error) {
    throw isConnectionLost(error) ? connectionLost(error) : error;
  }
}

/**
 * Adapts a `pg.Pool`. No connection error ever goes unhandled (`pg` would crash the process): the pool
 * and every checked-out client carry an error listener, a transaction whose connection died rejects
 * with `ChatwireError('UNAVAILABLE')` and its client is discarded, so the pool recovers by itself.
 */
export function createPgPoolExecutor(pool: Pool, options: PgPoolExecutorOptions): SqlExecutor {
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A throwing onError must not turn a handled connection error into an uncaught one.
    }
  };
  // pg emits errors of idle pooled clients on the pool (after discarding them).
  const onPoolError = (error: Error) => report(error);
  pool.on('error', onPoolError);
  // The listening connection is opened like the pool's own (same options and client class), outside it.
  const ClientClass = (pool.options as { Client?: typeof pg.Client }).Client ?? pg.Client;
  const listener = createPgListener({ createClient: () => new ClientClass(pool.options), onError: report });

  return {
    database: pool,
    query: (text, params) => run(pool, text, params),
    async transaction(fn) {
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw isConnectionLost(error) ? connectionLost(error) : error;
      }
      // For the whole checkout: an error between two statements (the backend was terminated while the
      // transaction was idle) is emitted on the client and would otherwise crash the process.
      let lost: unknown;
      const onClientError = (error: Error) => {
        lost ??= error;
        report(error);
      };
      client.on('error', onClientError);
      let broken: unknown;
      const guard = async <R extends object>(text: string, params?: readonly SqlValue[]) => {
        try {
          return await run<R>(client, text, params);
        } catch (error) {
          throw lost === undefined ? error : connectionLost(lost);
        }
      };
      try {
        await guard('BEGIN');
        const bound: SqlClient = { query: guard };
        try {
          const value = await fn(bound);
          await guard('COMMIT');
          return value;
        } catch (error) {
          try {
            await client.query('ROLLBACK');
          } catch (rollbackError) {
            broken = rollbackError; // the connection is unusable
          }
          throw lost !== undefined || isConnectionLost(error) ? connectionLost(lost ?? error) : error;
        }
      } catch (error) {
        broken ??= lost ?? (ChatwireError.is(error, 'UNAVAILABLE') ? error : undefined);
        throw error;
      } finally {
        client.off('error', onClientError);
        // A client that errored is destroyed instead of going back to the pool.
        const failure = broken ?? lost;
        client.release(failure === undefined ? undefined : failure instanceof Error ? failure : new Error(String(failure)));
      }
    },
    listen: (channel, fn) => listener.listen(channel, fn),
    async close() {
      await listener.close();
      if (options.owned) await pool.end();
      pool.off('error', onPoolError);
    },
  };
}
