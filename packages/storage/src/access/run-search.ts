import type { Caller } from '../caller.js';
import { ChatwireError } from '../chatwire-error.js';
import type { FieldCondition } from '../filter.js';
import { matchesCondition } from '../filter-semantics.js';
import { isPlainObject } from '../json-value.js';
import type { RecordEnvelope } from '../record-envelope.js';
import type { SearchSource } from '../search/driver-search.js';
import { buildSnippet, type SearchHighlight } from '../search/build-snippet.js';
import { parseSearchQuery } from '../search/parse-search-query.js';
import { searchTextOf } from '../search/search-text.js';
import type { AccessContext } from './create-record-access.js';
import { forbidden, invalid } from './errors.js';
import { queryFingerprint, unwrapCursor, wrapCursor } from './query-cursor.js';
import { gate, ownerFieldOf } from './rules.js';
import { validateFilter, validateLimit } from './validate-query.js';

/** Options of `RecordAccess.search`. */
export interface AccessSearchOptions {
  /** Default 50; at most `maxQueryLimit`. */
  limit?: number;
  cursor?: string;
}

export interface AccessSearchHit {
  collection: string;
  record: RecordEnvelope;
  rank: number;
  /** Plain text around the first match (no markup); `highlights` are offsets into it. */
  snippet: string;
  highlights: SearchHighlight[];
}

export interface AccessSearchPage {
  hits: AccessSearchHit[];
  nextCursor: string | null;
}

/**
 * Full-text search through the access layer: the text is parsed (VALIDATION when it has no word), every
 * source collection is checked like a query (read rule, filter), an `'own'` read rule ANDs the owner
 * condition into its filter, and cursors only fit the same search by the same caller.
 */
export async function runSearch(
  ctx: AccessContext,
  caller: Caller | null,
  sources: readonly SearchSource[],
  text: unknown,
  options: AccessSearchOptions | undefined,
): Promise<AccessSearchPage> {
  const { driver } = ctx;
  if (driver.capabilities.fullText !== true || typeof driver.search !== 'function') {
    throw new ChatwireError('CONFIGURATION', `The store driver "${driver.name}" has no full-text search`, {
      details: { capability: 'fullText' },
    });
  }
  if (!Array.isArray(sources) || sources.length === 0) throw invalid(undefined, 'sources', 'search needs at least one collection');
  if (options !== undefined && !isPlainObject(options)) throw invalid(undefined, undefined, 'search options must be an object');
  const query = parseSearchQuery(text);
  const seen = new Set<string>();
  const effective: SearchSource[] = [];
  let impossible = 0;
  for (const source of sources) {
    if (!isPlainObject(source) || typeof source.collection !== 'string') throw invalid(undefined, 'sources', 'each source needs a collection');
    const def = ctx.lookup(source.collection);
    if (seen.has(def.name)) throw invalid(def.name, undefined, 'a collection may be searched once per search');
    seen.add(def.name);
    const readGate = caller ? gate(def.rules.read, caller) : 'allow';
    if (readGate === 'deny') throw forbidden(def.name, 'read records');
    const filter: Record<string, FieldCondition> = validateFilter(def, source.filter);
    if (readGate === 'own' && caller) {
      const owner = ownerFieldOf(def) as string;
      const own = filter[owner];
      if (own !== undefined && !matchesCondition(caller.userId, own)) impossible++;
      filter[owner] = { eq: caller.userId };
    }
    effective.push({ collection: def.name, filter });
  }
  const limit = validateLimit('', options?.limit, ctx.limits);
  const fp = queryFingerprint('search', [effective, query.groups.map((g) => g.map((item) => [item.words, item.negated]))], 'rank', 'desc');
  const cursor = unwrapCursor('', fp, options?.cursor);
  if (impossible === effective.length) return { hits: [], nextCursor: null };
  const page = await driver.search({ sources: effective, query, limit, ...(cursor === undefined ? {} : { cursor }) });
  return {
    hits: page.hits.map(({ collection, record, rank }) => ({
      collection,
      record,
      rank,
      ...buildSnippet(searchTextOf(record.data) ?? '', query.words),
    })),
    nextCursor: wrapCursor(fp, page.nextCursor),
  };
}
