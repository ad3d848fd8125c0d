import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ChatwireError } from '@chatwire/storage';
import { createPgliteDriver } from './create-pglite-driver.js';
import { createPostgresDriver } from './create-postgres-driver.js';
import { createPgliteExecutor } from './create-pglite-executor.js';
import { createSqlDriver } from './create-sql-driver.js';
import { schemaSql } from './schema-sql.js';
import type { SqlExecutor } from './sql-executor.js';
import { createTableNames } from './table-names.js';
import { databaseUrl, SERVER_SKIP_REASON, sharedPglite, uniqueSchema } from './testing/test-backends.js';

const TABLES_SQL = `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`;

describe('options', () => {
  it('needs a pool or a connection string (an unset DATABASE_URL is CONFIGURATION)', () => {
    for (const options of [{}, { connectionString: undefined }, { connectionString: '' }]) {
      const error = (() => {
        try {
          createPostgresDriver(options);
        } catch (e) {
          return e;
        }
      })();
      expect(ChatwireError.is(error, 'CONFIGURATION')).toBe(true);
      expect((error as Error).message).toContain('DATABASE_URL');
    }
  });

  it('rejects schema and table prefixes that are not plain identifiers', () => {
    const bad = [{ schema: 'a"; DROP SCHEMA public; --' }, { schema: '' }, { tablePrefix: 'x y' }, { schema: 'x'.repeat(41) }];
    for (const options of bad) {
      expect(() => createPostgresDriver({ connectionString: 'postgres://localhost/x', ...options })).toThrow(
        expect.objectContaining({ code: 'CONFIGURATION' }),
      );
    }
  });
});

describe('schema creation on PGlite', () => {
  it('creates tables on first use only, with the configured prefix, idempotently', async () => {
    const db = await sharedPglite();
    const schema = uniqueSchema('ddl');
    const driver = createPgliteDriver(db, { schema, tablePrefix: 'app_' });
    expect((await db.query(TABLES_SQL, [schema])).rows).toEqual([]);
    await Promise.all([driver.get('c', 'x'), driver.ready(), createPgliteDriver(db, { schema, tablePrefix: 'app_' }).ready()]);
    expect((await db.query(TABLES_SQL, [schema])).rows).toEqual([{ name: 'app_leases' }, { name: 'app_records' }]);
    await driver.ready();
    await db.query(`DROP SCHEMA "${schema}" CASCADE`);
  });
});

describe('schemaSql', () => {
  it('is exactly the DDL the driver runs on first use (one source)', async () => {
    const db = await sharedPglite();
    const schema = uniqueSchema('ddlsrc');
    const ran: string[] = [];
    const inner = createPgliteExecutor(db);
    const recording: SqlExecutor = {
      ...inner,
      transaction: (fn) => inner.transaction((client) => fn({ query: (text, params) => (ran.push(text), client.query(text, params)) })),
    };
    const driver = createSqlDriver({ name: 'recorded', executor: recording, tables: createTableNames(schema, 'src_') });
    await driver.ready();
    // Probes and savepoints are not DDL.
    const ddl = ran.filter((text) => !/^(SELECT|SAVEPOINT|RELEASE)\b/.test(text));
    expect(`${ddl.map((text) => `${text};`).join('\n\n')}\n`).toBe(schemaSql({ schema, tablePrefix: 'src_' }));
    await db.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it('defaults to schema public and prefix chatwire_, and rejects bad names', () => {
    expect(schemaSql()).toContain('CREATE TABLE IF NOT EXISTS "public"."chatwire_records"');
    expect(schemaSql()).toContain('CREATE TABLE IF NOT EXISTS "public"."chatwire_leases"');
    expect(() => schemaSql({ tablePrefix: 'x"; DROP' })).toThrow(expect.objectContaining({ code: 'CONFIGURATION' }));
  });
});

describe.skipIf(!databaseUrl)(`schema creation on the postgres server ${databaseUrl ? '' : SERVER_SKIP_REASON}`, () => {
  const schemas: string[] = [];
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('is safe when several processes start together (separate pools, same fresh schema)', async () => {
    for (let round = 0; round < 3; round++) {
      const schema = uniqueSchema('race');
      schemas.push(schema);
      const drivers = Array.from({ length: 4 }, () => createPostgresDriver({ connectionString: databaseUrl, schema, max: 2 }));
      await Promise.all(drivers.map((d, i) => (i % 2 ? d.ready() : d.insert('c', { recordId: `r${i}`, data: { i } }))));
      const tables = await admin.query(TABLES_SQL, [schema]);
      expect(tables.rows).toEqual([{ name: 'chatwire_leases' }, { name: 'chatwire_records' }]);
      const rows = (await drivers[1]?.query('c', { limit: 10 }))?.records ?? [];
      expect(rows.map((r) => r.recordId).sort()).toEqual(['r0', 'r2']); // written concurrently: any order
      await Promise.all(drivers.map((d) => d.close()));
    }
  });

  it('a driver built from a connection string owns its pool and close() ends it', async () => {
    const schema = uniqueSchema('own');
    schemas.push(schema);
    const driver = createPostgresDriver({ connectionString: databaseUrl, schema });
    await driver.insert('c', { recordId: 'a', data: {} });
    await driver.close();
    await expect(driver.get('c', 'a')).rejects.toThrow();
  });

  it('a borrowed pool stays open after close()', async () => {
    const schema = uniqueSchema('borrow');
    schemas.push(schema);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const driver = createPostgresDriver({ pool, schema });
    await driver.insert('c', { recordId: 'a', data: {} });
    await driver.close();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });
});
