import type { StoreDriver } from '@chatwire/storage';
import type { SqlClient, SqlExecutor } from './sql-executor.js';

/**
 * How a PostgreSQL blob store finds the record driver it shares a database with (internal: not exported
 * from the package). The SQL driver registers itself and each transaction driver it hands out.
 */
export interface SqlTransactionLink {
  /** The executor's `database` (equal handles share connections and transactions). */
  readonly database: object | undefined;
  /** Runs a statement in the transaction (refused once it ended or a statement failed, like the driver's own). */
  readonly query: SqlClient['query'];
}

const transactions = new WeakMap<StoreDriver, SqlTransactionLink>();
/** A SQL driver's executor, and where its tables are (the blob table goes beside them by default). */
export interface SqlDriverLink {
  executor: SqlExecutor;
  schema: string;
  tablePrefix: string;
}

const executors = new WeakMap<StoreDriver, SqlDriverLink>();

export function linkTransaction(driver: StoreDriver, link: SqlTransactionLink): void {
  transactions.set(driver, link);
}

/** The link of a transaction driver of the SQL driver, or undefined for any other driver. */
export function transactionLink(driver: StoreDriver): SqlTransactionLink | undefined {
  return transactions.get(driver);
}

export function linkExecutor(driver: StoreDriver, link: SqlDriverLink): void {
  executors.set(driver, link);
}

/** The executor a SQL driver runs on and its tables' place (for `createPostgresBlobStore({ driver })`). */
export function executorOf(driver: StoreDriver): SqlDriverLink | undefined {
  return executors.get(driver);
}
