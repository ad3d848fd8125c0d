import type { Filter, OrderBy } from './filter.js';
import type { RecordData, RecordEnvelope } from './record-envelope.js';
import type { TurnLeases } from './turn-leases.js';
import type { DriverNotifications } from './driver-notifications.js';
import type { DriverSearch, SearchPage } from './search/driver-search.js';

export interface DriverQuery {
  filter?: Filter;
  orderBy?: OrderBy;
  /** Already validated by the access layer: an integer >= 1. */
  limit: number;
  /** Opaque cursor returned by a previous page of the same query. */
  cursor?: string;
}

export interface QueryPage<TData extends RecordData = RecordData> {
  records: RecordEnvelope<TData>[];
  /** `null` when there are no more rows. */
  nextCursor: string | null;
}

export interface InsertResult {
  record: RecordEnvelope;
  /** `false` when the recordId already held equal data (idempotent retry). */
  created: boolean;
}

/** What a driver offers beyond the primitives, declared so callers never probe for methods. */
export interface DriverCapabilities {
  /** Leases hold across every process using the same database (false: only within this process). */
  readonly sharedLeases: boolean;
  /** `notifications` is present (across processes exactly when `sharedLeases` is). */
  readonly notifications: boolean;
  /** `search` is present: full-text search over the rows' `title` and `content` (absent: false). */
  readonly fullText?: boolean;
}

/**
 * The primitives a driver implements. Drivers know nothing about rules or schemas: the access layer
 * (`createRecordStore`) validates every input before it reaches them. Every driver runs
 * `defineStoreContract` from `@chatwire/storage/testing`.
 *
 * Ordering contract: rows with equal sort keys come back in insertion order (drivers keep a monotonic
 * sequence). Cursors are keyset cursors: pages never duplicate or skip rows when rows are inserted
 * between pages.
 *
 * Details the contract suite checks (filter and order semantics are documented in `filter.ts`):
 * - `createdAt` never decreases in insertion order, so ordering by `createdAt` is insertion order; `desc`
 *   is the exact reverse of `asc`, ties included. No `orderBy` means `createdAt` asc.
 * - Returned records are copies (mutating them never changes stored data); timestamps are ISO strings.
 * - "Equal data" for an idempotent insert is JSON structural equality (object key order ignored).
 * - `update` stores `null` values as given (a patch cannot delete a key); it keeps `createdAt` and the
 *   row's insertion position. An empty patch `{}` changes no field but bumps `updatedAt` (a "touch" that
 *   cannot revert a concurrent change of another field).
 * - A malformed cursor is `ChatwireError('VALIDATION')`. `nextCursor` is null when no rows remain, also
 *   when the last page is exactly full. Collections spring into existence on first insert.
 */
export interface StoreDriver {
  readonly name: string;
  /** Insert; `recordId` generated when absent. Same id + equal data: no-op; different data: CONFLICT. */
  insert(collection: string, input: { recordId?: string; data: RecordData }): Promise<InsertResult>;
  get(collection: string, recordId: string): Promise<RecordEnvelope | null>;
  /** Optional: `get` of several ids in one round trip (the rows found, in any order). Without it, `get` per id. */
  getMany?(collection: string, recordIds: readonly string[]): Promise<RecordEnvelope[]>;
  query(collection: string, query: DriverQuery): Promise<QueryPage>;
  /** Shallow patch of data fields; returns null when the row does not exist. */
  update(collection: string, recordId: string, patch: RecordData): Promise<RecordEnvelope | null>;
  delete(collection: string, recordId: string): Promise<boolean>;
  /** Deletes every row matching the filter; returns the count. */
  deleteWhere(collection: string, filter: Filter): Promise<number>;
  readonly capabilities: DriverCapabilities;
  /**
   * Runs `fn` atomically: every write through `tx` commits together or not at all (`fn` throws: rolled
   * back, the error rethrown). Inside `fn` use only `tx`; a nested `tx.transaction` joins the outer one.
   */
  transaction<T>(fn: (tx: StoreDriver) => Promise<T>): Promise<T>;
  /**
   * Per-chat turn leases (across processes when `capabilities.sharedLeases`). On a transaction's driver,
   * `tx.leases.holds` runs inside that transaction and keeps the lease from being taken over until it ends.
   */
  readonly leases: TurnLeases;
  /** Present exactly when `capabilities.notifications`. */
  readonly notifications?: DriverNotifications;
  /**
   * Present exactly when `capabilities.fullText`: rows of the sources whose searchable text (`search-text.ts`)
   * matches the parsed query, by rank (occurrences of the query's words) then newest first, keyset-paged.
   * The memory driver is the reference of the matching rules; `contract-search.ts` compares against it.
   */
  search?(query: DriverSearch): Promise<SearchPage>;
  close?(): Promise<void>;
}
