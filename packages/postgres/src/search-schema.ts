import type { SqlClient } from './sql-executor.js';
import type { TableNames } from './table-names.js';

/** Characters of a row's searchable text that are indexed (the same cut as `MAX_SEARCH_CHARS` in @chatwire/storage). */
const MAX_CHARS = 100_000;

/** The generated column holding a row's words, the function that folds text for it, and its GIN index. */
export interface SearchObjects {
  /** Schema-qualified, quoted name of the IMMUTABLE fold function. */
  fold: string;
  /** Its signature for `to_regprocedure`. */
  foldSignature: string;
  index: string;
  /** The index's schema-qualified name, for `to_regclass`. */
  qualifiedIndex: string;
}

export function searchObjects(t: TableNames): SearchObjects {
  const fold = `${t.schema}."${t.raw.records}_search_fold"`;
  const index = `${t.raw.records}_search_idx`;
  return { fold, foldSignature: `${fold}(text)`, index, qualifiedIndex: `${t.schema}."${index}"` };
}

/** Installs `unaccent` where `schemaSql` expects it. */
export const INSTALL_UNACCENT = 'CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public';

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The fold function: `unaccent` (from the schema the extension lives in) when there is one, else the text
 * as it is (search then ignores case, which `to_tsvector` folds, but not accents). `unaccent` itself is only
 * STABLE (it reads a dictionary); pinning the dictionary by schema-qualified name makes the wrapper safe
 * to declare IMMUTABLE, as a generated column needs. The comment records which of the two it is.
 */
export function foldFunctionStatements(t: TableNames, unaccentSchema: string | null): string[] {
  const { fold } = searchObjects(t);
  const body = unaccentSchema === null ? 'SELECT $1' : `SELECT ${unaccentSchema}.unaccent(${literal(`${unaccentSchema}.unaccent`)}::regdictionary, $1)`;
  return [
    `CREATE OR REPLACE FUNCTION ${fold}(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $fold$ ${body} $fold$`,
    `COMMENT ON FUNCTION ${fold}(text) IS ${literal(unaccentSchema === null ? 'chatwire search fold: case only' : 'chatwire search fold: unaccent')}`,
  ];
}

/** The searchable text of a row (string `title` and `content`, joined by a space), as `searchTextOf` builds it. */
const TEXT = `CASE
      WHEN jsonb_typeof(data->'title') = 'string' AND jsonb_typeof(data->'content') = 'string' THEN (data->>'title') || ' ' || (data->>'content')
      WHEN jsonb_typeof(data->'title') = 'string' THEN data->>'title'
      WHEN jsonb_typeof(data->'content') = 'string' THEN data->>'content'
    END`;

/** The generated `search_tsv` column (NULL for rows without text) and its GIN index on (owner, words). */
export function searchColumnStatements(t: TableNames): string[] {
  const { fold, index } = searchObjects(t);
  return [
    `ALTER TABLE ${t.records} ADD COLUMN IF NOT EXISTS search_tsv tsvector GENERATED ALWAYS AS (
      to_tsvector('simple'::regconfig, ${fold}(left(${TEXT}, ${MAX_CHARS})))
    ) STORED`,
    // The owner first: a search of one user's rows intersects that user's entries with the words' in the index,
    // instead of visiting every row of every user holding the words. A short pending list (128 kB instead of
    // 4 MB): every search reads all of it, while inserts still add to it rather than to the tree one by one.
    `CREATE INDEX IF NOT EXISTS "${index}" ON ${t.records} USING gin ((data->'userId'), search_tsv) WITH (gin_pending_list_limit = 128)`,
  ];
}

/**
 * Inside the schema transaction: installs `unaccent` when the server offers it (a failure, e.g. missing
 * privileges, leaves search without accent folding rather than failing), creates the fold function unless it
 * exists (the generated column depends on it), then the column and the index. Existing tables get the column
 * by `ALTER TABLE` (which rewrites the table once).
 */
export async function ensureSearchSchema(client: SqlClient, t: TableNames): Promise<void> {
  const { foldSignature } = searchObjects(t);
  const exists = await client.query<{ ok: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS ok', [foldSignature]);
  if (exists.rows[0]?.ok !== true) {
    for (const statement of foldFunctionStatements(t, await installUnaccent(client))) await client.query(statement);
  }
  for (const statement of searchColumnStatements(t)) await client.query(statement);
}

async function unaccentSchema(client: SqlClient): Promise<string | null> {
  const found = await client.query<{ ns: string }>(`SELECT extnamespace::regnamespace::text AS ns FROM pg_extension WHERE extname = 'unaccent'`);
  return found.rows[0]?.ns ?? null;
}

async function installUnaccent(client: SqlClient): Promise<string | null> {
  const available = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'unaccent'`);
  if (available.rows.length === 0) return unaccentSchema(client);
  // Processes on other schemas may install it at the same moment: one at a time. Already installed (in any
  // schema), the statement changes nothing and that schema is used.
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['chatwire:extension:unaccent']);
  await client.query('SAVEPOINT chatwire_unaccent');
  try {
    await client.query(INSTALL_UNACCENT);
    await client.query('RELEASE SAVEPOINT chatwire_unaccent');
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT chatwire_unaccent');
  }
  return unaccentSchema(client);
}

/** How the database folds search text: accents and case, or case only (no `unaccent` when the schema was made). */
export async function readSearchFolding(client: SqlClient, t: TableNames): Promise<'accents-and-case' | 'case-only'> {
  const { foldSignature } = searchObjects(t);
  const result = await client.query<{ note: string | null }>('SELECT obj_description(to_regprocedure($1), \'pg_proc\') AS note', [foldSignature]);
  return result.rows[0]?.note === 'chatwire search fold: unaccent' ? 'accents-and-case' : 'case-only';
}
