import { PGlite } from '@electric-sql/pglite';
import { createRecordStore, type CollectionDefinition } from '@chatwire/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDriver } from './create-pglite-driver.js';
import { schemaStatements } from './ensure-schema.js';
import type { SqlDriver } from './create-sql-driver.js';
import { createTableNames } from './table-names.js';
import { backends } from './testing/test-backends.js';

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
        const index = await opened.sql.query<{ def: string }>(
          `SELECT indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND indexname = 'chatwire_records_search_idx'`,
          [opened.schema],
        );
        expect(index.rows[0]?.def).toContain("USING gin (((data -> 'userId'::text)), search_tsv)");
      } finally {
        await opened.cleanup();
      }
    });
  });
}
