import type { Caller } from '../caller.js';
import type { CollectionDefinition } from '../collection-definition.js';
import type { FieldCondition } from '../filter.js';
import type { AccessQuery } from '../record-access.js';
import type { QueryPage, StoreDriver } from '../store-driver.js';
import { matchesCondition } from '../filter-semantics.js';
import { isPlainObject } from '../json-value.js';
import { invalid } from './errors.js';
import { ownerFieldOf, type Gate } from './rules.js';
import type { StoreLimits } from './store-limits.js';
import { validateFilter, validateLimit, validateOrderBy } from './validate-query.js';
import { queryFingerprint, unwrapCursor, wrapCursor } from './query-cursor.js';

/**
 * Validates a query, ANDs the caller's owner condition into it under an `'own'` read rule (a filter that
 * excludes the caller's own id yields nothing), and wraps cursors so they only fit the same query.
 */
export async function runQuery(
  driver: StoreDriver,
  def: CollectionDefinition,
  query: AccessQuery | undefined,
  limits: StoreLimits,
  readGate: Gate,
  caller: Caller | null,
): Promise<QueryPage> {
  const name = def.name;
  if (query !== undefined && !isPlainObject(query)) throw invalid(name, undefined, 'query must be an object');
  const filter: Record<string, FieldCondition> = validateFilter(def, query?.filter);
  const orderBy = validateOrderBy(def, query?.orderBy);
  const limit = validateLimit(name, query?.limit, limits);
  let impossible = false;
  if (readGate === 'own' && caller) {
    const owner = ownerFieldOf(def) as string;
    const own = filter[owner];
    if (own !== undefined && !matchesCondition(caller.userId, own)) impossible = true;
    filter[owner] = { eq: caller.userId };
  }
  // The fingerprint (canonical JSON of the effective query) is only needed to check a cursor coming in or to
  // mint one going out, so a page with neither never computes it. Drivers only read the query they are given,
  // so a fingerprint taken after the driver ran is the one the next page's cursor is checked against.
  const incoming = query?.cursor;
  let fp: string | undefined;
  if (incoming !== undefined && incoming !== null) fp = queryFingerprint(name, filter, orderBy.field, orderBy.direction);
  const cursor = unwrapCursor(name, fp ?? '', incoming);
  if (impossible) return { records: [], nextCursor: null };
  const page = await driver.query(name, {
    filter,
    orderBy,
    limit,
    ...(cursor === undefined ? {} : { cursor }),
  });
  if (page.nextCursor === null) return { records: page.records, nextCursor: null };
  fp ??= queryFingerprint(name, filter, orderBy.field, orderBy.direction);
  return { records: page.records, nextCursor: wrapCursor(fp, page.nextCursor) };
}
