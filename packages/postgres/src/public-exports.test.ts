import { expect, it } from 'vitest';

// The public surface of @chatwire/postgres: a change here is a change for every user, so it shows in review.
it('exports exactly this API', async () => {
  const api = await import('./index.js');
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "createPgPoolExecutor",
      "createPgliteDriver",
      "createPgliteExecutor",
      "createPostgresDriver",
      "createPostgresExecutor",
      "createSqlDriver",
      "createTableNames",
      "schemaSql",
    ]
  `);
});
