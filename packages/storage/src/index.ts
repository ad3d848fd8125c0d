export { ChatwireError, isChatwireError } from './chatwire-error.js';
export type { ChatwireErrorCode, ChatwireErrorOptions } from './chatwire-error.js';
export type { RecordEnvelope, RecordData } from './record-envelope.js';
export type { Caller } from './caller.js';
export type {
  CollectionDefinition,
  CollectionRules,
  ColumnDefinition,
  ColumnType,
  Rule,
} from './collection-definition.js';
export { FILTER_OPERATORS } from './filter.js';
export type { Filter, FieldCondition, FilterValue, FilterOperator, OrderBy } from './filter.js';
export type { StoreDriver, DriverCapabilities, DriverQuery, QueryPage, InsertResult } from './store-driver.js';
export type { DriverNotifications } from './driver-notifications.js';
export { MAX_NOTIFICATION_BYTES, checkNotification, checkSubscription } from './driver-notifications.js';
export type { TurnLease, TurnLeases } from './turn-leases.js';
export { DEFAULT_TURN_LEASE_TTL_MS } from './turn-leases.js';
export type { RecordAccess, AccessQuery } from './record-access.js';
// Full-text search: the driver primitive, the access layer's answer, and the shared matching rules.
export type { DriverSearch, SearchSource, SearchHit, SearchPage } from './search/driver-search.js';
export type { AccessSearchOptions, AccessSearchHit, AccessSearchPage } from './access/run-search.js';
export type { SearchQuery, SearchItem } from './search/parse-search-query.js';
export type { SearchHighlight } from './search/build-snippet.js';
export { parseSearchQuery, MAX_SEARCH_LENGTH } from './search/parse-search-query.js';
export { SEARCH_FIELDS } from './search/search-text.js';
export { encodeSearchCursor, decodeSearchCursor } from './search/search-cursor.js';
export { createRecordStore } from './create-record-store.js';
export { accessDriver } from './access/create-record-access.js';
export type { RecordStore, RecordStoreOptions } from './create-record-store.js';
export type { StoreLimits } from './access/store-limits.js';
export { DEFAULT_QUERY_LIMIT, RECORD_ID_PATTERN } from './access/store-limits.js';
export { LONE_SURROGATE } from './lone-surrogate.js';
// Shared semantics, for drivers that evaluate filters or orderings in JavaScript.
export { compareCodePoints, compareSortValues, matchesCondition, matchesFilter, sortTypeRank } from './filter-semantics.js';
export { encodeCursor, decodeCursor } from './base64url.js';
export { jsonEqual } from './json-value.js';
// Attachment bytes: the blob store interface and its in-memory driver.
export type { BlobStore, TransactionBlobs } from './blobs/blob-store.js';
export { BLOB_KEY_PATTERN, checkBlobKey, concatBytes } from './blobs/blob-store.js';
export { createMemoryBlobStore } from './blobs/create-memory-blob-store.js';
