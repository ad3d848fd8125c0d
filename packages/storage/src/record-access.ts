import type { Caller } from './caller.js';
import type { CollectionDefinition } from './collection-definition.js';
import type { Filter, OrderBy } from './filter.js';
import type { QueryPage } from './store-driver.js';
import type { RecordData, RecordEnvelope } from './record-envelope.js';
import type { SearchSource } from './search/driver-search.js';
import type { AccessSearchOptions, AccessSearchPage } from './access/run-search.js';

export interface AccessQuery {
  filter?: Filter;
  orderBy?: OrderBy;
  /** Default 50; at most `maxQueryLimit` (default 200); anything else is a VALIDATION error. */
  limit?: number;
  cursor?: string;
}

/**
 * Record operations seen through one caller's rights (`store.asCaller(caller)`) or with server rights
 * (`store.asServer()`: rules skipped, schemas still enforced). Every method validates its input against
 * the collection schema and throws `ChatwireError` (NOT_FOUND, FORBIDDEN, VALIDATION, CONFLICT) with a
 * message naming the collection and field.
 *
 * Rows the caller may not read are reported as NOT_FOUND, never FORBIDDEN, so ids of other users' rows
 * cannot be probed.
 */
export interface RecordAccess {
  /** `null` for server access. */
  readonly caller: Caller | null;
  create<T extends RecordData = RecordData>(
    collection: string,
    data: RecordData,
    options?: { recordId?: string },
  ): Promise<RecordEnvelope<T>>;
  get<T extends RecordData = RecordData>(collection: string, recordId: string): Promise<RecordEnvelope<T>>;
  /** Like `get` but resolves null instead of throwing NOT_FOUND. */
  find<T extends RecordData = RecordData>(collection: string, recordId: string): Promise<RecordEnvelope<T> | null>;
  /**
   * `find` for several ids at once (one driver call when the driver has `getMany`): the rows found and readable,
   * by recordId. At most `maxQueryLimit` ids (VALIDATION beyond).
   */
  findMany<T extends RecordData = RecordData>(collection: string, recordIds: readonly string[]): Promise<Map<string, RecordEnvelope<T>>>;
  query<T extends RecordData = RecordData>(collection: string, query?: AccessQuery): Promise<QueryPage<T>>;
  update<T extends RecordData = RecordData>(collection: string, recordId: string, patch: RecordData): Promise<RecordEnvelope<T>>;
  delete(collection: string, recordId: string): Promise<void>;
  /** Server access only (cascades); a caller gets FORBIDDEN. */
  deleteWhere(collection: string, filter: Filter): Promise<number>;
  /**
   * Whether the lease `{ key, holder }` (a `TurnLease`) is still live and this holder's. Inside
   * `transaction` the check runs in the transaction and keeps the lease from being taken over until it
   * commits, so a save that checked it first is fenced (a holder that lost its lease writes nothing).
   */
  holdsLease(lease: { key: string; holder: string }): Promise<boolean>;
  /**
   * Full-text search (web-search syntax, see `parseSearchQuery`) over the sources' rows, each source checked
   * like a query: its read rule applies and an `'own'` rule keeps the caller's own rows. VALIDATION when the
   * text is empty, over 256 characters or has no word; CONFIGURATION when the driver has no `fullText`.
   */
  search(sources: readonly SearchSource[], text: string, options?: AccessSearchOptions): Promise<AccessSearchPage>;
  /** Runs `fn` in one driver transaction: its writes commit together or, when `fn` throws, not at all. */
  transaction<T>(fn: (access: RecordAccess) => Promise<T>): Promise<T>;
  /** Collections this access may see: for a caller, registered, not hidden, and readable or creatable. */
  listCollections(): CollectionDefinition[];
  /** One collection's definition; NOT_FOUND when unknown or hidden from this caller. */
  describe(collection: string): CollectionDefinition;
}
