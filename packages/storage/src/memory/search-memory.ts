import type { RecordData } from '../record-envelope.js';
import type { DriverSearch, SearchPage } from '../search/driver-search.js';
import { decodeSearchCursor, encodeSearchCursor, isAfter } from '../search/search-cursor.js';
import { indexDocument, matchesDocument, rankDocument, type SearchDocument } from '../search/search-document.js';
import { searchTextOf } from '../search/search-text.js';
import type { MemoryCollection } from './memory-collection.js';
import { toEnvelope, type MemoryRow } from './memory-row.js';

/** Each row's indexed text, kept while its data object lives (an update stores a new data object). */
const documents = new WeakMap<RecordData, SearchDocument | null>();

function documentOf(row: MemoryRow): SearchDocument | null {
  let doc = documents.get(row.data);
  if (doc === undefined) {
    const text = searchTextOf(row.data);
    doc = text === null ? null : indexDocument(text);
    documents.set(row.data, doc);
  }
  return doc;
}

/**
 * The reference implementation of `StoreDriver.search`: every row of each source that passes its filter
 * (read through the collection's indexes) and whose text matches, by rank then newest first.
 */
export function searchMemory(query: DriverSearch, collectionOf: (name: string) => MemoryCollection | undefined): SearchPage {
  const after = query.cursor === undefined ? null : decodeSearchCursor(query.cursor);
  const found: { collection: string; row: MemoryRow; rank: number }[] = [];
  for (const source of query.sources) {
    const rows = collectionOf(source.collection)?.select(source.filter).rows ?? [];
    for (const row of rows) {
      const doc = documentOf(row);
      if (!doc || !matchesDocument(doc, query.query)) continue;
      const rank = rankDocument(doc, query.query);
      if (after && !isAfter(after, rank, row.seq)) continue;
      found.push({ collection: source.collection, row, rank });
    }
  }
  found.sort((a, b) => b.rank - a.rank || b.row.seq - a.row.seq);
  const page = found.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    hits: page.map(({ collection, row, rank }) => ({ collection, record: toEnvelope(row), rank })),
    nextCursor: found.length > query.limit && last ? encodeSearchCursor({ rank: last.rank, seq: String(last.row.seq) }) : null,
  };
}
