import type { SqlClient, SqlExecutor, SqlResult, SqlValue } from './sql-executor.js';

interface PgliteResults<T> {
  rows: T[];
  affectedRows?: number;
}

/** The part of a PGlite transaction object the driver uses. */
export interface PgliteTransactionLike {
  query<T>(query: string, params?: unknown[]): Promise<PgliteResults<T>>;
}

/**
 * The part of `PGlite` (`@electric-sql/pglite` >= 0.2) the driver uses, typed structurally so that
 * this package does not need PGlite installed unless you use it.
 */
export interface PgliteLike extends PgliteTransactionLike {
  transaction<T>(callback: (tx: PgliteTransactionLike) => Promise<T>): Promise<T>;
  /** LISTEN/NOTIFY within the instance; present in every PGlite release the driver supports. */
  listen?(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

function toResult<R>(result: PgliteResults<R>): SqlResult<R> {
  return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
}

/**
 * Adapts a PGlite instance. PGlite is one connection: its own `transaction()` holds a lock so that
 * queries from outside the transaction wait until it ends, which is exactly the isolation we need.
 */
export function createPgliteExecutor(pglite: PgliteLike): SqlExecutor {
  return {
    database: pglite,
    query: async <R extends object>(text: string, params?: readonly SqlValue[]) =>
      toResult(await pglite.query<R>(text, params === undefined ? [] : [...params])),
    transaction: <T>(fn: (client: SqlClient) => Promise<T>) =>
      pglite.transaction(async (tx) =>
        fn({
          query: async <R extends object>(text: string, params?: readonly SqlValue[]) =>
            toResult(await tx.query<R>(text, params === undefined ? [] : [...params])),
        }),
      ),
    ...(typeof pglite.listen === 'function'
      ? { listen: (channel: string, listener: (payload: string) => void) => pglite.listen!(channel, listener) }
      : {}),
    close: async () => {},
  };
}
