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
export type { StoreDriver, DriverQuery, QueryPage, InsertResult } from './store-driver.js';
export type { TurnLease, TurnLeases } from './turn-leases.js';
export type { RecordAccess, AccessQuery } from './record-access.js';
// Implemented in ./create-record-store.ts:
//   createRecordStore({ driver, collections?, maxQueryLimit?, maxValueBytes?, maxRecordBytes? }): RecordStore
//   RecordStore { driver, leases, register(def), collection(name), collections(), asCaller(caller), asServer() }
