import type { SqlClient } from './sql-executor.js';
import type { TableNames } from './table-names.js';

/** Characters of a row's searchable text that are indexed (the same cut as `MAX_SEARCH_CHARS` in @chatwire/storage). */
const MAX_CHARS = 100_000;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The generated column holding a row's words, the text search configuration that folds them, and its GIN index. */
export interface SearchObjects {
  /** Schema-qualified, quoted name of the text search configuration (`simple`, behind `unaccent` when there is one). */
  config: string;
  /** The configuration as a `regconfig` constant, for SQL. */
  configSql: string;
  index: string;
  /** The index's schema-qualified name, for `to_regclass`. */
  qualifiedIndex: string;
  /** The IMMUTABLE wrapper around `unaccent` of the first shape: dropped when a table is migrated. */
  oldFoldSignature: string;
}

export function searchObjects(t: TableNames): SearchObjects {
  const config = `${t.schema}."${t.raw.records}_search"`;
  // A new name for the index of each shape: a table of an earlier shape (whose index was `_search_idx`, then
  // `_search_tsv_idx`) fails the fast path of `ensureSchema` and is migrated. At most 63 bytes with a 40-character prefix.
  const index = `${t.raw.records}_search_v3_idx`;
  return {
    config,
    configSql: `${literal(config)}::regconfig`,
    index,
    qualifiedIndex: `${t.schema}."${index}"`,
    oldFoldSignature: `${t.schema}."${t.raw.records}_search_fold"(text)`,
  };
}

/** Installs `unaccent` where `schemaSql` expects it. */
export const INSTALL_UNACCENT = 'CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public';

/** Every token type the `simple` configuration maps (to the `simple` dictionary); `blank`, `tag`, `entity` and `protocol` stay unindexed. */
const TOKEN_TYPES =
  'asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart, email, url, host, url_path, file, sfloat, float, int, uint, version';

const NOTE_UNACCENT = 'chatwire search: unaccent, simple';
const NOTE_CASE_ONLY = 'chatwire search: simple (case only)';

/**
 * The text search configuration: a copy of `simple` whose words go through the `unaccent` dictionary first
 * (from the schema the extension lives in) when there is one, else `simple` as it is (search then ignores case,
 * which `simple` folds, but not accents). `to_tsvector(regconfig, text)` is IMMUTABLE, so the generated column
 * calls it directly: no SQL wrapper function (whose body PostgreSQL plans again in every INSERT), no pass of
 * `unaccent` over the whole text. The comment records which of the two it is.
 */
export function searchConfigStatements(t: TableNames, unaccentSchema: string | null): string[] {
  const { config } = searchObjects(t);
  return [
    `CREATE TEXT SEARCH CONFIGURATION ${config} (COPY = pg_catalog.simple)`,
    ...(unaccentSchema === null
      ? []
      : [`ALTER TEXT SEARCH CONFIGURATION ${config} ALTER MAPPING FOR ${TOKEN_TYPES} WITH ${unaccentSchema}.unaccent, pg_catalog.simple`]),
    `COMMENT ON TEXT SEARCH CONFIGURATION ${config} IS ${literal(unaccentSchema === null ? NOTE_CASE_ONLY : NOTE_UNACCENT)}`,
  ];
}

/**
 * ASCII punctuation and symbols, and Unicode's general punctuation (U+2000-U+206F): none is a letter, digit or
 * mark, so each separates words, as `tokenize` in @chatwire/storage splits them. Replaced by a space before
 * PostgreSQL's parser sees the text, which would otherwise keep `john.doe@example.com`, `example.org/docs`,
 * `3.14.1`, `foo_bar.txt` or `/usr/local/bin` as one word (email, url, host, version, file tokens) and skip
 * `<b>` tags, so a search for `john` or `docs` found nothing. `regexp_replace` costs ~10 µs per 2 kB of text
 * (psql; `translate` with the same characters took ~300 µs). A plain string literal, the `\u` escapes read by the
 * regular expression: an `E'\u2000'` literal is refused by databases not in UTF8 (SQL_ASCII), which then could
 * not create the column.
 */
const SEPARATORS = "'[!-/:-@[-`{-~\\u2000-\\u206F]+'";

/** The searchable text of a row (string `title` and `content`, joined by a space), as `searchTextOf` builds it. */
const TEXT = `CASE
      WHEN jsonb_typeof(data->'title') = 'string' AND jsonb_typeof(data->'content') = 'string' THEN (data->>'title') || ' ' || (data->>'content')
      WHEN jsonb_typeof(data->'title') = 'string' THEN data->>'title'
      WHEN jsonb_typeof(data->'content') = 'string' THEN data->>'content'
    END`;

/**
 * The generated `search_tsv` column (NULL for rows without text: turn rows, most other collections, at the
 * cost of three `jsonb_typeof` calls) and its GIN index on (owner, words).
 */
export function searchColumnStatements(t: TableNames): string[] {
  const { configSql, index } = searchObjects(t);
  return [
    `ALTER TABLE ${t.records} ADD COLUMN IF NOT EXISTS search_tsv tsvector GENERATED ALWAYS AS (
      to_tsvector(${configSql}, regexp_replace(left(${TEXT}, ${MAX_CHARS}), ${SEPARATORS}, ' ', 'g'))
    ) STORED`,
    // A tsvector is about twice its text and barely compresses (distinct words, positions): stored out of line
    // without trying pglz first, which costs every save and usually fails to save 25 %.
    `ALTER TABLE ${t.records} ALTER COLUMN search_tsv SET STORAGE EXTERNAL`,
    // The owner first: a search of one user's rows intersects that user's entries with the words' in the index,
    // instead of visiting every row of every user holding the words. Partial: rows without text (turn rows,
    // other collections) add no entry. The server's pending list limit (`gin_pending_list_limit`, 4 MB by
    // default): a save appends its words to the list, and one save in ~500 merges it into the tree, where a
    // 128 kB list made one in ~16 pay a merge (+5-7 points of save cost at p50); every search reads the list,
    // which a full 4 MB list made ~1 ms slower at p50 and not measurably at p99 (bench/search.bench.ts).
    `CREATE INDEX IF NOT EXISTS "${index}" ON ${t.records} USING gin ((data->'userId'), search_tsv) WHERE search_tsv IS NOT NULL`,
  ];
}

/**
 * Tables of the first shape (a `search_tsv` generated through an SQL wrapper around `unaccent`, a GIN index on
 * every row): the column goes (its index with it) and so does the wrapper; `searchColumnStatements` then adds
 * the current column, which computes every row's words again (one rewrite of the table).
 */
export function dropFirstShapeStatements(t: TableNames): string[] {
  const { oldFoldSignature } = searchObjects(t);
  return [`ALTER TABLE ${t.records} DROP COLUMN IF EXISTS search_tsv`, `DROP FUNCTION IF EXISTS ${oldFoldSignature}`];
}

/**
 * The search DDL, each statement guarded so it can run again: `unaccent`, the migration of a first-shape table,
 * the configuration (unless it exists), the column and the index. `schemaSql` prints it; the driver runs it
 * (`unaccent` installed its own way). `unaccentSchema` null: the configuration folds case only.
 */
export function searchSchemaScript(t: TableNames, unaccentSchema: string | null): string[] {
  const { qualifiedIndex } = searchObjects(t);
  const [dropColumn, dropFold] = dropFirstShapeStatements(t);
  const configExists = `SELECT 1 FROM pg_ts_config WHERE cfgnamespace = ${literal(t.schema)}::regnamespace AND cfgname = ${literal(`${t.raw.records}_search`)}`;
  return [
    INSTALL_UNACCENT,
    `DO $cw$ BEGIN IF to_regclass(${literal(qualifiedIndex)}) IS NULL THEN ${dropColumn}; END IF; END $cw$`,
    dropFold!,
    `DO $cw$ BEGIN IF NOT EXISTS (${configExists}) THEN ${searchConfigStatements(t, unaccentSchema).join('; ')}; END IF; END $cw$`,
    ...searchColumnStatements(t),
  ];
}

/**
 * Inside the schema transaction: the statements of `searchSchemaScript`. Before a first configuration, installs
 * `unaccent` when the server offers it (a failure, e.g. missing privileges, leaves search without accent folding
 * rather than failing); a configuration that exists is kept as it is (its rows were indexed with it). Existing
 * tables get the column by `ALTER TABLE` (which rewrites the table once).
 */
export async function ensureSearchSchema(client: SqlClient, t: TableNames): Promise<void> {
  const found = await client.query<{ ok: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgnamespace = $1::regnamespace AND cfgname = $2) AS ok',
    [t.schema, `${t.raw.records}_search`],
  );
  const unaccent = found.rows[0]?.ok === true ? null : await installUnaccent(client);
  for (const statement of searchSchemaScript(t, unaccent).slice(1)) await client.query(statement);
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
  const result = await client.query<{ note: string | null }>(
    `SELECT obj_description(oid, 'pg_ts_config') AS note FROM pg_ts_config WHERE cfgnamespace = $1::regnamespace AND cfgname = $2`,
    [t.schema, `${t.raw.records}_search`],
  );
  return result.rows[0]?.note === NOTE_UNACCENT ? 'accents-and-case' : 'case-only';
}
