import type { Filter } from '../filter.js';
import type { RecordEnvelope } from '../record-envelope.js';
import type { SearchQuery } from './parse-search-query.js';

/** Rows of one collection to search, narrowed by a filter (the access layer ANDs the owner rule into it). */
export interface SearchSource {
  collection: string;
  filter?: Filter;
}

/** What `StoreDriver.search` receives, already validated by the access layer. */
export interface DriverSearch {
  /** At least one; each collection at most once. */
  sources: SearchSource[];
  query: SearchQuery;
  /** An integer >= 1. */
  limit: number;
  /** Opaque cursor returned by a previous page of the same search. */
  cursor?: string;
}

export interface SearchHit {
  collection: string;
  record: RecordEnvelope;
  /** How many times the query's words occur in the row's searchable text (higher first). */
  rank: number;
}

export interface SearchPage {
  hits: SearchHit[];
  /** `null` when there are no more hits. */
  nextCursor: string | null;
}
