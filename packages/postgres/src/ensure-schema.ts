import type { SqlExecutor } from './sql-executor.js';
import type { TableNames } from './table-names.js';
import { ensureSearchSchema, searchObjects } from './search-schema.js';

/**
 * The DDL. One generic records table: `seq` is the monotonic insertion order that breaks every tie;
 * expression indexes serve one chat's messages in order and one user's chats newest first.
 */
export function schemaStatements(t: TableNames): string[] {
  const r = t.raw.records;
  return [
    `CREATE SCHEMA IF NOT EXISTS ${t.schema}`,
    `CREATE TABLE IF NOT EXISTS ${t.records} (
      collection text NOT NULL,
      record_id text NOT NULL,
      data jsonb NOT NULL,
      created_at timestamptz(3) NOT NULL,
      updated_at timestamptz(3) NOT NULL,
      seq bigserial NOT NULL,
      PRIMARY KEY (collection, record_id)
    )`,
    `CREATE INDEX IF NOT EXISTS "${r}_chat_created_idx" ON ${t.records} (collection, (data->'chatId'), created_at, seq)`,
    `CREATE INDEX IF NOT EXISTS "${r}_user_created_idx" ON ${t.records} (collection, (data->'userId'), created_at DESC, seq DESC)`,
    `CREATE INDEX IF NOT EXISTS "${r}_seq_idx" ON ${t.records} (collection, seq)`,
    `CREATE TABLE IF NOT EXISTS ${t.leases} (
      key text PRIMARY KEY,
      holder text NOT NULL,
      expires_at timestamptz NOT NULL
    )`,
  ];
}

function indexNames(t: TableNames): string[] {
  return ['chat_created_idx', 'user_created_idx', 'seq_idx'].map((suffix) => `${t.schema}."${t.raw.records}_${suffix}"`);
}

/**
 * Creates the schema idempotently. Two processes starting together serialize on a transaction-level
 * advisory lock (CREATE ... IF NOT EXISTS alone races on the catalog's unique indexes).
 */
export async function ensureSchema(executor: SqlExecutor, t: TableNames): Promise<void> {
  // Fast path, no lock and no privileges needed: everything is already there.
  const objects = [t.records, t.leases, ...indexNames(t), searchObjects(t).qualifiedIndex];
  const probe = await executor.query<{ ready: boolean }>(
    `SELECT ${objects.map((_, i) => `to_regclass($${i + 1}) IS NOT NULL`).join(' AND ')} AS ready`,
    objects,
  );
  if (probe.rows[0]?.ready === true) return;
  await executor.transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`chatwire:${t.raw.schema}.${t.raw.records}`]);
    for (const statement of schemaStatements(t)) await client.query(statement);
    await ensureSearchSchema(client, t);
  });
}
