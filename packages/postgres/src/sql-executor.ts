/**
 * The tiny query-executor abstraction the one SQL driver runs on. Both `pg.Pool` and a PGlite instance
 * are adapted to it (`create-pg-pool-executor.ts`, `create-pglite-executor.ts`).
 */
export interface SqlResult<R> {
  rows: R[];
  /** Rows inserted, updated or deleted by the statement. */
  rowCount: number;
}

/** A statement parameter: text, NULL, or bytes (sent as binary `bytea`, never as text). */
export type SqlValue = string | null | Uint8Array;

/** Runs one parameterized statement. Placeholders are `$1`, `$2`...; values are strings, null or bytes. */
export interface SqlClient {
  query<R extends object = Record<string, unknown>>(text: string, params?: readonly SqlValue[]): Promise<SqlResult<R>>;
}

export interface SqlExecutor extends SqlClient {
  /** The database handle it runs on (the `pg.Pool`, the PGlite instance): equal handles share transactions. */
  readonly database?: object;
  /**
   * Runs `fn` with a client bound to one connection inside BEGIN/COMMIT; ROLLBACK when `fn` throws
   * (the error is rethrown).
   */
  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>;
  /**
   * LISTENs on `channel` (a plain lowercase identifier) until the returned function is called. Executors
   * without it give a driver without notifications.
   */
  listen?(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>;
  /** Releases what the executor owns (a pool it created, its listening connection); PGlite stays open. */
  close(): Promise<void>;
}
