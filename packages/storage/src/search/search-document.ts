import type { SearchItem, SearchQuery } from './parse-search-query.js';
import { MAX_SEARCH_POSITION, MAX_WORD_POSITIONS, tokenize } from './search-text.js';

/**
 * A text indexed as PostgreSQL's `to_tsvector('simple', …)` indexes it: each word with its positions
 * (1-based, capped at 16,383, at most 255 per word, duplicates dropped).
 */
export type SearchDocument = ReadonlyMap<string, readonly number[]>;

export function indexDocument(text: string): SearchDocument {
  const doc = new Map<string, number[]>();
  let position = 0;
  for (const token of tokenize(text)) {
    position = Math.min(position + 1, MAX_SEARCH_POSITION);
    let positions = doc.get(token.word);
    if (!positions) doc.set(token.word, (positions = []));
    if (positions.length < MAX_WORD_POSITIONS && positions[positions.length - 1] !== position) positions.push(position);
  }
  return doc;
}

function itemOccurs(doc: SearchDocument, item: SearchItem): boolean {
  const [first, ...rest] = item.words;
  const starts = first === undefined ? undefined : doc.get(first);
  if (!starts) return false;
  if (rest.length === 0) return true;
  const later = rest.map((word) => new Set(doc.get(word) ?? []));
  return starts.some((p) => later.every((set, i) => set.has(p + i + 1)));
}

/** Whether the document matches the query (any group whose items hold). */
export function matchesDocument(doc: SearchDocument, query: SearchQuery): boolean {
  return query.groups.some((group) => group.every((item) => itemOccurs(doc, item) !== item.negated));
}

/** The rank of a matching document: how many times the query's words occur in it (positions kept). */
export function rankDocument(doc: SearchDocument, query: SearchQuery): number {
  let rank = 0;
  for (const word of query.words) rank += doc.get(word)?.length ?? 0;
  return rank;
}
