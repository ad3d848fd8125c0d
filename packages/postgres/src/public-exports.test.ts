import { expect, it, vi } from 'vitest';

// Importing every entry's sources takes seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

// The public surface of @chatwire/postgres: a change here is a change for every user, so it shows in review.
it('exports exactly this API', async () => {
  const api = await import('./index.js');
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "createPgPoolExecutor",
      "createPgliteDriver",
      "createPgliteExecutor",
      "createPostgresBlobStore",
      "createPostgresDriver",
      "createPostgresExecutor",
      "createSqlBlobStore",
      "createSqlDriver",
      "createTableNames",
      "schemaSql",
    ]
  `);
});
