import { ChatwireError, decodeCursor, encodeCursor } from '@chatwire/storage';
import type { DriverCapabilities, DriverQuery, Filter, OrderBy, RecordData, StoreDriver } from '@chatwire/storage';
import { buildFilterSql } from './build-filter-sql.js';
import { checkText, encodeData, encodeText } from './check-storable.js';
import { createSqlLeases } from './create-sql-leases.js';
import { createSqlNotifications } from './create-sql-notifications.js';
import { ensureSchema } from './ensure-schema.js';
import { mapPgError } from './map-pg-error.js';
import { buildOrderSql, checkCursor, cursorAfter } from './query-order.js';
import { RECORD_COLUMNS, toEnvelope, type RecordRow } from './record-columns.js';
import type { SqlClient, SqlExecutor, SqlValue } from './sql-executor.js';
import { SqlParams } from './sql-params.js';
import { linkExecutor, linkTransaction } from './sql-blob-links.js';
import { readSearchFolding } from './search-schema.js';
import { searchRecords } from './sql-search.js';
import type { TableNames } from './table-names.js';

export interface SqlDriver extends StoreDriver {
  /** Creates the tables and indexes now instead of on first use (idempotent). */
  ready(): Promise<void>;
  /** How search folds text: 'case-only' when `unaccent` was missing as the schema was made (PGlite without it). */
  searchFolding(): Promise<'accents-and-case' | 'case-only'>;
  close(): Promise<void>;
}

export interface SqlDriverConfig {
  name: string;
  executor: SqlExecutor;
  tables: TableNames;
  generateId?: () => string;
  /** What a notification listener threw. Default: ignored. */
  onError?: ((error: unknown) => void) | undefined;
}

interface TxState {
  open: boolean;
  failed: { error: unknown } | null;
}

const checkCollection = (collection: string) => checkText(collection, 'collection name');
const what = (collection: string) => `collection ${JSON.stringify(collection)}`;

/** The one StoreDriver implementation, over any SqlExecutor (pg.Pool or PGlite). */
export function createSqlDriver(config: SqlDriverConfig): SqlDriver {
  const { executor, tables: t } = config;
  const generateId = config.generateId ?? (() => crypto.randomUUID());
  let schema: Promise<void> | null = null;
  const ready = () => {
    schema ??= ensureSchema(executor, t).catch((error: unknown) => {
      schema = null; // retry on next use
      throw error;
    });
    return schema;
  };
  const leases = createSqlLeases(
    async (text, params) => {
      await ready();
      try {
        return await executor.query(text, params);
      } catch (error) {
        throw mapPgError(error, undefined);
      }
    },
    t,
    { inTransaction: false },
  );
  const report = (error: unknown) => {
    try {
      config.onError?.(error);
    } catch {
      // A throwing onError must not break the other listeners.
    }
  };
  const listen = executor.listen?.bind(executor);
  const notifications = listen ? createSqlNotifications(executor, listen, t, report) : undefined;
  // Every process on the database shares the leases table; NOTIFY reaches them all too.
  const capabilities: DriverCapabilities = Object.freeze({
    sharedLeases: true,
    notifications: notifications !== undefined,
    fullText: true,
  });

  /**
   * `inTx`: the client is bound to a transaction. A statement that fails aborts a PostgreSQL
   * transaction, so the first failure is kept: later statements are refused and the transaction throws
   * it even if `fn` caught it (COMMIT would otherwise roll back silently).
   */
  function build(client: SqlClient, inTx: TxState | null): SqlDriver {
    /** `collection` undefined: a lease statement. */
    const run = async <R extends object>(collection: string | undefined, text: string, params: SqlParams | SqlValue[]) => {
      const subject = collection === undefined ? 'turn leases' : what(collection);
      if (inTx && !inTx.open) {
        throw new ChatwireError('INTERNAL', `${subject}: transaction driver used after its transaction ended`);
      }
      if (inTx?.failed) {
        throw new ChatwireError('INTERNAL', `${subject}: the transaction was aborted by an earlier failed statement`, {
          cause: inTx.failed.error,
        });
      }
      if (!inTx) await ready();
      try {
        return await client.query<R>(text, Array.isArray(params) ? params : params.values);
      } catch (error) {
        const mapped = mapPgError(error, collection);
        if (inTx) inTx.failed = { error: mapped };
        throw mapped;
      }
    };

    const driver: SqlDriver = {
      name: config.name,
      capabilities,
      // In a transaction, lease statements join it (a failed one aborts it like any statement).
      leases: inTx ? createSqlLeases((text, values) => run(undefined, text, values), t, { inTransaction: true }) : leases,
      ...(notifications ? { notifications } : {}),
      async insert(collection, input) {
        checkCollection(collection);
        const recordId = input.recordId ?? generateId();
        checkText(recordId, `${what(collection)} record id`);
        const json = JSON.stringify(encodeData(input.data, what(collection)));
        const ins = new SqlParams();
        const insertSql = `INSERT INTO ${t.records} AS r (collection, record_id, data, created_at, updated_at)
          SELECT ${ins.add(collection)}, ${ins.add(recordId)}, ${ins.add(json)}::jsonb, clock.ts, clock.ts
          FROM (SELECT clock_timestamp()::timestamptz(3) AS ts) clock
          ON CONFLICT (collection, record_id) DO NOTHING
          RETURNING ${RECORD_COLUMNS}`;
        const sel = new SqlParams();
        const existingSql = `SELECT ${RECORD_COLUMNS}, data = ${sel.add(json)}::jsonb AS same FROM ${t.records}
          WHERE collection = ${sel.add(collection)} AND record_id = ${sel.add(recordId)}`;
        // Usually one statement. On a conflict, compare with the stored row; should that row be deleted
        // in between, try again.
        for (let attempt = 0; attempt < 5; attempt++) {
          const inserted = (await run<RecordRow>(collection, insertSql, ins)).rows[0];
          if (inserted) return { record: toEnvelope(inserted), created: true };
          const existing = (await run<RecordRow & { same: boolean }>(collection, existingSql, sel)).rows[0];
          if (!existing) continue;
          if (!existing.same) {
            throw new ChatwireError(
              'CONFLICT',
              `Record ${JSON.stringify(recordId)} already exists in ${what(collection)} with different data`,
              { details: { collection, recordId } },
            );
          }
          return { record: toEnvelope(existing), created: false };
        }
        throw new ChatwireError('INTERNAL', `${what(collection)}: insert of ${JSON.stringify(recordId)} kept racing`);
      },

      async get(collection, recordId) {
        checkCollection(collection);
        checkText(recordId, `${what(collection)} record id`);
        const p = new SqlParams();
        const text = `SELECT ${RECORD_COLUMNS} FROM ${t.records} WHERE collection = ${p.add(collection)} AND record_id = ${p.add(recordId)}`;
        const row = (await run<RecordRow>(collection, text, p)).rows[0];
        return row ? toEnvelope(row) : null;
      },

      async getMany(collection, recordIds) {
        checkCollection(collection);
        for (const id of recordIds) checkText(id, `${what(collection)} record id`);
        if (recordIds.length === 0) return [];
        const p = new SqlParams();
        const text = `SELECT ${RECORD_COLUMNS} FROM ${t.records}
          WHERE collection = ${p.add(collection)} AND record_id = ANY (ARRAY(SELECT jsonb_array_elements_text(${p.json(recordIds)})))`;
        return (await run<RecordRow>(collection, text, p)).rows.map(toEnvelope);
      },

      async query(collection, query: DriverQuery) {
        checkCollection(collection);
        const order: Required<OrderBy> = {
          field: query.orderBy?.field ?? 'createdAt',
          direction: query.orderBy?.direction === 'desc' ? 'desc' : 'asc',
        };
        const storedField = encodeText(order.field, `${what(collection)} order field`, 'orderBy');
        const cursor = query.cursor === undefined ? null : checkCursor(decodeCursor(query.cursor), order, collection);
        const limit = query.limit;
        if (!Number.isSafeInteger(limit) || limit < 1) {
          throw new ChatwireError('VALIDATION', `${what(collection)}: limit must be a positive integer`, {
            details: { collection, field: 'limit' },
          });
        }
        const p = new SqlParams();
        const c = p.add(collection);
        const where = [`collection = ${c}`, ...buildFilterSql(p, collection, query.filter)];
        const orderSql = buildOrderSql(p, order, cursor, storedField, { records: t.records, collection: c });
        if (orderSql.after) where.push(orderSql.after);
        const text = `SELECT ${RECORD_COLUMNS} FROM ${t.records} WHERE ${where.join(' AND ')}
          ORDER BY ${orderSql.orderBy} LIMIT ${p.add(String(limit + 1))}::bigint`;
        const rows = (await run<RecordRow>(collection, text, p)).rows;
        const more = rows.length > limit;
        const page = more ? rows.slice(0, limit) : rows;
        const records = page.map(toEnvelope);
        const last = page[page.length - 1];
        const lastRecord = records[records.length - 1];
        const nextCursor =
          more && last && lastRecord
            ? encodeCursor(cursorAfter(order, { createdAt: last.created_iso, seq: last.seq_text, data: lastRecord.data }))
            : null;
        return { records, nextCursor };
      },

      async update(collection, recordId, patch: RecordData) {
        checkCollection(collection);
        checkText(recordId, `${what(collection)} record id`);
        const p = new SqlParams();
        const text = `UPDATE ${t.records}
          SET data = data || ${p.json(encodeData(patch, what(collection)))}, updated_at = GREATEST(clock_timestamp()::timestamptz(3), created_at, updated_at)
          WHERE collection = ${p.add(collection)} AND record_id = ${p.add(recordId)}
          RETURNING ${RECORD_COLUMNS}`;
        const row = (await run<RecordRow>(collection, text, p)).rows[0];
        return row ? toEnvelope(row) : null;
      },

      async delete(collection, recordId) {
        checkCollection(collection);
        checkText(recordId, `${what(collection)} record id`);
        const p = new SqlParams();
        const text = `DELETE FROM ${t.records} WHERE collection = ${p.add(collection)} AND record_id = ${p.add(recordId)}`;
        return (await run(collection, text, p)).rowCount > 0;
      },

      async deleteWhere(collection, filter: Filter) {
        checkCollection(collection);
        const p = new SqlParams();
        const where = [`collection = ${p.add(collection)}`, ...buildFilterSql(p, collection, filter)];
        return (await run(collection, `DELETE FROM ${t.records} WHERE ${where.join(' AND ')}`, p)).rowCount;
      },

      search: (query) => searchRecords(query, t, (text, p) => run(query.sources[0]?.collection, text, p)),

      async transaction<T>(fn: (tx: StoreDriver) => Promise<T>): Promise<T> {
        if (inTx) return fn(driver); // nested: part of the enclosing transaction
        await ready();
        return executor.transaction(async (txClient) => {
          const state: TxState = { open: true, failed: null };
          try {
            const value = await fn(build(txClient, state));
            if (state.failed) throw state.failed.error; // ROLLBACK, and say why
            return value;
          } finally {
            state.open = false;
          }
        });
      },
      ready,
      searchFolding: async () => {
        await ready();
        return readSearchFolding(client, t);
      },
      // A transaction's driver does not own the connection pool.
      close: inTx ? async () => {} : () => executor.close(),
    };
    // Lets a blob store on the same database write in this transaction (`createSqlBlobStore`).
    if (inTx) linkTransaction(driver, { database: executor.database, query: (text, params) => run(undefined, text, params ? [...params] : []) });
    else linkExecutor(driver, { executor, schema: t.raw.schema, tablePrefix: t.raw.records.slice(0, -'records'.length) });
    return driver;
  }

  return build(executor, null);
}
