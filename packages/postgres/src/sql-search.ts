import { decodeSearchCursor, encodeSearchCursor, type DriverSearch, type Filter, type SearchPage } from '@chatwire/storage';
import { buildFilterSql } from './build-filter-sql.js';
import { recordColumnsOf, toEnvelope, type RecordRow } from './record-columns.js';
import { searchObjects } from './search-schema.js';
import { SqlParams } from './sql-params.js';
import type { TableNames } from './table-names.js';

interface SearchRow extends RecordRow {
  collection: string;
  rank_text: string;
}

/** The `userId` a filter pins with `eq` (a plain string, nothing the storage encoding would rewrite), or null. */
function ownerOf(filter: Filter | undefined): string | null {
  const value = filter?.userId;
  const eq = typeof value === 'object' && value !== null && !Array.isArray(value) ? value.eq : value;
  return typeof eq === 'string' && !/[\u0000\u0001]/.test(eq) ? eq : null;
}

type Run = <R extends object>(text: string, params: SqlParams) => Promise<{ rows: R[] }>;

/**
 * `StoreDriver.search` in SQL. The query goes through `websearch_to_tsquery` (which never raises a syntax
 * error) from the parsed query written back in web-search syntax, so it matches the same groups as the
 * memory driver; the GIN index on `search_tsv` finds the rows. Rank: occurrences of the query's words in
 * the row (positions in its tsvector); ties newest first by insertion sequence; keyset cursor on both.
 *
 * Every match is ranked, from its tsvector alone: `setweight` marks the query's words and `ts_filter` keeps
 * only them, so `unnest` lists those few lexemes instead of all of the row's (psql: 5.5 µs a match instead
 * of 45-77 on 250-word answers; a one-word search over the bench's 12-word rows 2.9 ms instead of 5.3, hot).
 * The page is chosen by row id (`ctid`, valid within the statement's snapshot), and only its rows' `data` is
 * read and sent.
 */
export async function searchRecords(query: DriverSearch, t: TableNames, run: Run): Promise<SearchPage> {
  const { configSql } = searchObjects(t);
  const p = new SqlParams();
  const tsquery = `websearch_to_tsquery(${configSql}, ${p.add(query.query.websearch)})`;
  const words = `tsvector_to_array(to_tsvector(${configSql}, ${p.add(query.query.rawWords)}))`;
  const sources = query.sources.map((source) => {
    const conditions = [`collection = ${p.add(source.collection)}`, ...buildFilterSql(p, source.collection, source.filter)];
    const owner = ownerOf(source.filter);
    // The same condition as containment, which the (owner, words) GIN index answers.
    if (owner !== null) conditions.push(`(data->'userId') @> ${p.json(owner)}`);
    return `(${conditions.join(' AND ')})`;
  });
  const after = query.cursor === undefined ? null : decodeSearchCursor(query.cursor);
  const afterSql = after
    ? `WHERE rank < ${p.add(String(after.rank))}::bigint OR (rank = ${p.add(String(after.rank))}::bigint AND seq < ${p.add(after.seq)}::bigint)`
    : '';
  const rank = `(SELECT coalesce(sum(cardinality(w.positions)), 0) FROM unnest(ts_filter(setweight(search_tsv, 'A', ${words}), '{a}')) w)`;
  const text = `SELECT h.collection, ${recordColumnsOf('r')}, h.rank::text AS rank_text FROM (
      SELECT tid, collection, seq, rank FROM (
        SELECT ctid AS tid, collection, seq, ${rank} AS rank
        FROM ${t.records}
        WHERE search_tsv @@ ${tsquery} AND (${sources.join(' OR ')})
        OFFSET 0
      ) matches
      ${afterSql}
      ORDER BY rank DESC, seq DESC
      LIMIT ${p.add(String(query.limit + 1))}::bigint
    ) h
    JOIN ${t.records} r ON r.ctid = h.tid
    ORDER BY h.rank DESC, h.seq DESC`;
  const rows = (await run<SearchRow>(text, p)).rows;
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const last = page[page.length - 1];
  return {
    hits: page.map((row) => ({ collection: row.collection, record: toEnvelope(row), rank: Number(row.rank_text) })),
    nextCursor: more && last ? encodeSearchCursor({ rank: Number(last.rank_text), seq: last.seq_text }) : null,
  };
}
