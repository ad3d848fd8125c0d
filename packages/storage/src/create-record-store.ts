import type { Caller } from './caller.js';
import type { CollectionDefinition } from './collection-definition.js';
import type { RecordAccess } from './record-access.js';
import type { DriverCapabilities, StoreDriver } from './store-driver.js';
import type { TurnLeases } from './turn-leases.js';
import { ChatwireError } from './chatwire-error.js';
import { jsonEqual } from './json-value.js';
import { createRecordAccess, type AccessContext } from './access/create-record-access.js';
import { invalid } from './access/errors.js';
import type { StoreLimits } from './access/store-limits.js';
import { validateDefinition } from './access/validate-definition.js';

export interface RecordStoreOptions {
  driver: StoreDriver;
  /** Collections to register at once (same as calling `register` for each). */
  collections?: readonly CollectionDefinition[];
  /** Largest query `limit` (default 200). The default limit is 50. */
  maxQueryLimit?: number;
  /** Largest single data value in UTF-8 JSON bytes (default 2 MiB). */
  maxValueBytes?: number;
  /** Largest record `data` in UTF-8 JSON bytes (default 4 MiB). */
  maxRecordBytes?: number;
}

export interface RecordStore {
  readonly driver: StoreDriver;
  /** `driver.capabilities`: whether leases hold across processes, whether notifications exist. */
  readonly capabilities: DriverCapabilities;
  /** `driver.leases`. */
  readonly leases: TurnLeases;
  readonly limits: Readonly<StoreLimits>;
  /** Adds a collection. Registering an equal definition again is a no-op; a different one is CONFIGURATION. */
  register(definition: CollectionDefinition): CollectionDefinition;
  /** The registered definition; VALIDATION when unknown. */
  collection(name: string): CollectionDefinition;
  hasCollection(name: string): boolean;
  collections(): CollectionDefinition[];
  /** Access with the caller's rights (rules enforced). */
  asCaller(caller: Caller): RecordAccess;
  /** Access with server rights: rules skipped, schemas still enforced. */
  asServer(): RecordAccess;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new ChatwireError('CONFIGURATION', `createRecordStore: ${name} must be a positive integer`);
  }
  return value;
}

/** Every driver declares its capabilities and has transactions and leases: nothing is probed later. */
function checkDriver(driver: StoreDriver): void {
  const missing = (what: string) =>
    new ChatwireError('CONFIGURATION', `createRecordStore: driver "${String(driver.name)}" has no ${what}`, {
      details: { option: 'driver' },
    });
  const caps = driver.capabilities as Partial<DriverCapabilities> | undefined;
  if (typeof caps?.sharedLeases !== 'boolean' || typeof caps.notifications !== 'boolean') {
    throw missing('capabilities ({ sharedLeases, notifications } booleans)');
  }
  if (typeof driver.transaction !== 'function') throw missing('transaction()');
  if (typeof driver.leases?.acquire !== 'function' || typeof driver.leases.holds !== 'function' || typeof driver.leases.isHeld !== 'function') throw missing('leases (acquire, holds, isHeld)');
  if (caps.notifications && typeof driver.notifications?.subscribe !== 'function') {
    throw missing('notifications although its capabilities declare them');
  }
  if (caps.fullText === true && typeof driver.search !== 'function') throw missing('search() although its capabilities declare fullText');
}

/** The record store: collections, access rules and validation, written once above any `StoreDriver`. */
export function createRecordStore(options: RecordStoreOptions): RecordStore {
  const { driver } = options;
  if (!driver || typeof driver.insert !== 'function') {
    throw new ChatwireError('CONFIGURATION', 'createRecordStore: a driver is required');
  }
  checkDriver(driver);
  const limits: StoreLimits = Object.freeze({
    maxQueryLimit: positiveInteger('maxQueryLimit', options.maxQueryLimit, 200),
    maxValueBytes: positiveInteger('maxValueBytes', options.maxValueBytes, 2 * 1024 * 1024),
    maxRecordBytes: positiveInteger('maxRecordBytes', options.maxRecordBytes, 4 * 1024 * 1024),
  });
  const registry = new Map<string, CollectionDefinition>();
  const ctx: AccessContext = {
    driver,
    limits,
    lookup(name) {
      const def = typeof name === 'string' ? registry.get(name) : undefined;
      if (!def) throw invalid(String(name), undefined, `unknown collection "${String(name)}"`);
      return def;
    },
    all: () => [...registry.values()],
  };
  const server = createRecordAccess(ctx, null);

  const store: RecordStore = {
    driver,
    capabilities: driver.capabilities,
    leases: driver.leases,
    limits,
    register(definition) {
      const def = validateDefinition(definition);
      const existing = registry.get(def.name);
      if (existing) {
        if (jsonEqual(existing, def)) return existing;
        throw new ChatwireError('CONFIGURATION', `Collection "${def.name}" is already registered with another definition`, {
          details: { collection: def.name },
        });
      }
      registry.set(def.name, def);
      return def;
    },
    collection: (name) => ctx.lookup(name),
    hasCollection: (name) => registry.has(name),
    collections: ctx.all,
    asCaller(caller) {
      if (typeof caller !== 'object' || caller === null || typeof caller.userId !== 'string' || caller.userId === '') {
        throw invalid(undefined, 'userId', 'caller.userId must be a non-empty string');
      }
      if (caller.role !== undefined && typeof caller.role !== 'string') {
        throw invalid(undefined, 'role', 'caller.role must be a string when present');
      }
      return createRecordAccess(ctx, caller);
    },
    asServer: () => server,
  };
  for (const definition of options.collections ?? []) store.register(definition);
  return store;
}
