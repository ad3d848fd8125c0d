import { createPostgresDriver } from '@chatwire/postgres';
import type { StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import pg from 'pg';

/** A store a test runs on: the memory driver, or a real PostgreSQL (skipped without CHATWIRE_TEST_DATABASE_URL). */
export interface StoreBackend {
  name: string;
  /** Empty when it runs; the reason otherwise. */
  skipReason: string;
  /** A driver over a fresh store (a new schema on PostgreSQL). */
  driver(): StoreDriver;
  /** Drops what `driver` made. */
  close(): Promise<void>;
}

/** Memory and PostgreSQL; `prefix` names this file's schemas so parallel runs never share one. */
export function storeBackends(prefix: string): StoreBackend[] {
  const url = process.env.CHATWIRE_TEST_DATABASE_URL;
  let pool: pg.Pool | null = null;
  const schemas: string[] = [];
  let seq = 0;
  return [
    { name: 'memory', skipReason: '', driver: () => createMemoryDriver(), close: async () => undefined },
    {
      name: 'PostgreSQL',
      skipReason: url ? '' : '(skipped: CHATWIRE_TEST_DATABASE_URL not set)',
      driver() {
        pool ??= new pg.Pool({ connectionString: url, max: 4 });
        const schema = `${prefix}_${process.pid}_${Date.now().toString(36)}_${seq++}`;
        schemas.push(schema);
        return createPostgresDriver({ pool, schema });
      },
      async close() {
        if (!pool) return;
        for (const schema of schemas.splice(0)) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
        pool = null;
      },
    },
  ];
}
