import { createPgliteExecutor, type PgliteLike } from './create-pglite-executor.js';
import { createSqlDriver, type SqlDriver } from './create-sql-driver.js';
import type { PostgresTableOptions } from './create-postgres-driver.js';
import { createTableNames } from './table-names.js';

/**
 * The same driver over an in-process PGlite instance (`new PGlite()` from `@electric-sql/pglite`):
 * for tests, demos and embedded use. PGlite is one connection, so a transaction blocks every other
 * query until it ends; inside `transaction(fn)` use only the driver `fn` receives. `close()` leaves the
 * PGlite instance open (you created it, you close it).
 */
export function createPgliteDriver(pglite: PgliteLike, options: PostgresTableOptions = {}): SqlDriver {
  return createSqlDriver({
    name: 'pglite',
    executor: createPgliteExecutor(pglite),
    tables: createTableNames(options.schema ?? 'public', options.tablePrefix ?? 'chatwire_'),
    ...(options.generateId ? { generateId: options.generateId } : {}),
  });
}
