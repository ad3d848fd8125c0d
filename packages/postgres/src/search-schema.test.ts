import { PGlite } from '@electric-sql/pglite';
import { createRecordStore, type CollectionDefinition } from '@chatwire/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDriver } from './create-pglite-driver.js';
import { schemaStatements } from './ensure-schema.js';
import { searchConfigStatements } from './search-schema.js';
import type { SqlDriver } from './create-sql-driver.js';
import { createTableNames } from './table-names.js';
import { createPostgresDriver } from './create-postgres-driver.js';
import { backends, databaseUrl, SERVER_SKIP_REASON } from './testing/test-backends.js';
import pg from 'pg';

const NOTES: CollectionDefinition = {
  name: 'notes',
  rules: { read: 'own', create: 'own', update: 'own', delete: 'own' },
  columns: [
    { name: 'userId', type: 'string', required: true },
    { name: 'content', type: 'string', required: true },
  ],
};

async function ids(driver: SqlDriver, q: string): Promise<string[]> {
  const store = createRecordStore({ driver, collections: [NOTES] });
  return (await store.asCaller({ userId: 'ann' }).search([{ collection: 'notes' }], q)).hits.map((h) => h.record.recordId);
}

describe('search on PGlite without the unaccent extension', () => {
  const db = new PGlite();
  afterAll(() => db.close());

  it('degrades explicitly: searchFolding() says case-only, accents must then match as typed', async () => {
    const driver = createPgliteDriver(db, { schema: 'bare' });
    await driver.insert('notes', { recordId: 'n1', data: { userId: 'ann', content: 'Le Café de Flore' } });
    expect(await driver.searchFolding()).toBe('case-only');
    expect(await ids(driver, 'CAFÉ flore')).toEqual(['n1']);
    expect(await ids(driver, 'cafe')).toEqual([]);
  });
});

/** A table made before search existed: the driver (and `chatwire-postgres apply`, which runs it) upgrades it. */
for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`search schema upgrade on ${backend.name} ${backend.skipReason}`, () => {
    it('adds the generated column and its index to an existing table; old rows become searchable', async () => {
      const opened = await backend.open('upgrade');
      try {
        const t = createTableNames(opened.schema, 'chatwire_');
        for (const statement of schemaStatements(t)) await opened.sql.query(statement);
        await opened.sql.query(
          `INSERT INTO ${t.records} (collection, record_id, data, created_at, updated_at) VALUES ('notes', 'old', $1::jsonb, now(), now())`,
          [JSON.stringify({ userId: 'ann', content: 'Written before the upgrade, à la française' })],
        );
        expect(await ids(opened.driver, 'francaise upgrade')).toEqual(['old']);
        expect(await opened.driver.searchFolding()).toBe('accents-and-case');
        expect(await searchIndexes(opened.sql, opened.schema)).toEqual([
          expect.stringContaining("chatwire_records_search_v3_idx ON "),
        ]);
        const [def] = await searchIndexes(opened.sql, opened.schema);
        expect(def).toContain("USING gin (((data -> 'userId'::text)), search_tsv)");
        expect(def).toContain('WHERE (search_tsv IS NOT NULL)');
      } finally {
        await opened.cleanup();
      }
    });

    it('migrates a table of the first search shape (SQL unaccent wrapper, index on every row): search works, the wrapper goes', async () => {
      const opened = await backend.open('firstshape');
      try {
        const t = createTableNames(opened.schema, 'chatwire_');
        for (const statement of [...schemaStatements(t), ...firstShape(opened.schema)]) await opened.sql.query(statement);
        await opened.sql.query(
          `INSERT INTO ${t.records} (collection, record_id, data, created_at, updated_at) VALUES
             ('notes', 'old', $1::jsonb, now(), now()), ('ai-turns', 't', '{"userId":"ann"}'::jsonb, now(), now())`,
          [JSON.stringify({ userId: 'ann', content: 'Crème brûlée, written by the first shape' })],
        );
        expect(await searchIndexes(opened.sql, opened.schema)).toEqual([expect.stringContaining('chatwire_records_search_idx ON ')]);

        expect(await ids(opened.driver, 'creme BRULEE shape')).toEqual(['old']);
        await opened.driver.insert('notes', { recordId: 'new', data: { userId: 'ann', content: 'A crème brûlée after the upgrade' } });
        expect(await ids(opened.driver, 'brulee')).toEqual(['new', 'old']);
        expect(await opened.driver.searchFolding()).toBe('accents-and-case');
        expect(await searchIndexes(opened.sql, opened.schema)).toEqual([expect.stringContaining('chatwire_records_search_v3_idx ON ')]);
        const wrapper = await opened.sql.query<{ ok: boolean }>('SELECT to_regprocedure($1) IS NULL AS ok', [`"${opened.schema}".chatwire_records_search_fold(text)`]);
        expect(wrapper.rows[0]?.ok).toBe(true);
        // A second driver on the migrated table finds it ready and changes nothing.
        const peer = await opened.openPeer();
        expect(await ids(peer, 'creme')).toEqual(['new', 'old']);
      } finally {
        await opened.cleanup();
      }
    });

    it('migrates a table of the second shape (emails, URLs and file names indexed whole): their parts become searchable', async () => {
      const opened = await backend.open('secondshape');
      try {
        const t = createTableNames(opened.schema, 'chatwire_');
        for (const statement of schemaStatements(t)) await opened.sql.query(statement);
        const unaccent = (await opened.sql.query<{ ns: string }>(`SELECT extnamespace::regnamespace::text AS ns FROM pg_extension WHERE extname = 'unaccent'`)).rows[0]?.ns ?? null;
        for (const statement of [...searchConfigStatements(t, unaccent), ...secondShape(opened.schema)]) await opened.sql.query(statement);
        await opened.sql.query(
          `INSERT INTO ${t.records} (collection, record_id, data, created_at, updated_at) VALUES ('notes', 'old', $1::jsonb, now(), now())`,
          [JSON.stringify({ userId: 'ann', content: 'Write to john.doe@example.com about foo_bar.txt' })],
        );
        const whole = await opened.sql.query<{ tsv: string }>(`SELECT search_tsv::text AS tsv FROM ${t.records} WHERE record_id = 'old'`);
        expect(whole.rows[0]?.tsv).toContain("'john.doe@example.com'");

        expect(await ids(opened.driver, 'john')).toEqual(['old']);
        expect(await ids(opened.driver, 'bar txt')).toEqual(['old']);
        expect(await searchIndexes(opened.sql, opened.schema)).toEqual([expect.stringContaining('chatwire_records_search_v3_idx ON ')]);
        const peer = await opened.openPeer();
        expect(await ids(peer, 'example')).toEqual(['old']);
      } finally {
        await opened.cleanup();
      }
    });
  });
}

/** The search indexes of a schema's records table, as `CREATE INDEX` statements. */
async function searchIndexes(sql: { query: <R extends object>(text: string, params?: readonly (string | null)[]) => Promise<{ rows: R[] }> }, schema: string) {
  const found = await sql.query<{ def: string }>(`SELECT indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE '%search%' ORDER BY 1`, [schema]);
  return found.rows.map((r) => r.def);
}

/** The DDL of the first search shape, as the driver made it before the text search configuration. */
function firstShape(schema: string): string[] {
  const fold = `"${schema}"."chatwire_records_search_fold"`;
  return [
    'CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public',
    `CREATE OR REPLACE FUNCTION ${fold}(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fold$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $fold$`,
    `COMMENT ON FUNCTION ${fold}(text) IS 'chatwire search fold: unaccent'`,
    `ALTER TABLE "${schema}"."chatwire_records" ADD COLUMN IF NOT EXISTS search_tsv tsvector GENERATED ALWAYS AS (
      to_tsvector('simple'::regconfig, ${fold}(left(CASE
      WHEN jsonb_typeof(data->'title') = 'string' AND jsonb_typeof(data->'content') = 'string' THEN (data->>'title') || ' ' || (data->>'content')
      WHEN jsonb_typeof(data->'title') = 'string' THEN data->>'title'
      WHEN jsonb_typeof(data->'content') = 'string' THEN data->>'content'
    END, 100000)))
    ) STORED`,
    `CREATE INDEX IF NOT EXISTS "chatwire_records_search_idx" ON "${schema}"."chatwire_records" USING gin ((data->'userId'), search_tsv) WITH (gin_pending_list_limit = 128)`,
  ];
}

/** The DDL of the second search shape (28 Nov 2026): the configuration as now, the text given to the parser as it is. */
function secondShape(schema: string): string[] {
  const config = `'"${schema}"."chatwire_records_search"'::regconfig`;
  return [
    `ALTER TABLE "${schema}"."chatwire_records" ADD COLUMN IF NOT EXISTS search_tsv tsvector GENERATED ALWAYS AS (
      to_tsvector(${config}, left(CASE
      WHEN jsonb_typeof(data->'title') = 'string' AND jsonb_typeof(data->'content') = 'string' THEN (data->>'title') || ' ' || (data->>'content')
      WHEN jsonb_typeof(data->'title') = 'string' THEN data->>'title'
      WHEN jsonb_typeof(data->'content') = 'string' THEN data->>'content'
    END, 100000))
    ) STORED`,
    `ALTER TABLE "${schema}"."chatwire_records" ALTER COLUMN search_tsv SET STORAGE EXTERNAL`,
    `CREATE INDEX IF NOT EXISTS "chatwire_records_search_tsv_idx" ON "${schema}"."chatwire_records" USING gin ((data->'userId'), search_tsv) WHERE search_tsv IS NOT NULL`,
  ];
}

describe.skipIf(!databaseUrl)(`search on a database not in UTF8 ${databaseUrl ? '' : SERVER_SKIP_REASON}`, () => {
  // The column's pattern once was an E'\u2000' literal, which a SQL_ASCII database refuses: no schema at all.
  it('a SQL_ASCII database gets the column and index, and finds the parts of an email', async () => {
    const name = `cw_ascii_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`);
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    const driver = createPostgresDriver({ connectionString: url.toString() });
    try {
      await driver.insert('notes', { recordId: 'n1', data: { userId: 'ann', content: 'Write to john.doe@example.com' } });
      expect(await ids(driver, 'john')).toEqual(['n1']);
      expect(await ids(driver, 'example com')).toEqual(['n1']);
    } finally {
      await driver.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
  });
});
