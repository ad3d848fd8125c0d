import { ChatwireError } from '../chatwire-error.js';
import { cloneJson, jsonEqual } from '../json-value.js';
import type { DriverCapabilities, StoreDriver } from '../store-driver.js';
import type { DriverNotifications } from '../driver-notifications.js';
import type { TurnLeases } from '../turn-leases.js';
import { MemoryCollection, type MemoryCollectionStats, type QueryPlan } from './memory-collection.js';
import { toEnvelope, type MemoryRow } from './memory-row.js';
import { createMemoryLeases, type MemoryLeases } from './create-memory-leases.js';
import { createMemoryNotifications } from './create-memory-notifications.js';
import { searchMemory } from './search-memory.js';

export interface MemoryDriverOptions {
  /** Clock in milliseconds (default `Date.now`). Timestamps never go backwards even if it does. */
  now?: () => number;
  /** Record id generator for inserts without one (default `crypto.randomUUID`). */
  generateId?: () => string;
  /** Leases to expose (default: `createMemoryLeases({ now })`). */
  leases?: TurnLeases;
  /** Receives what a notification listener threw. Default: ignored. */
  onError?: (error: unknown) => void;
}

export interface MemoryDriver extends StoreDriver {
  readonly notifications: DriverNotifications;
  /** How the most recent query or deleteWhere found its rows (for tests and benchmarks). */
  lastQueryPlan(): QueryPlan | null;
  /** What every collection holds, summed: after deleting every row all three are 0. */
  stats(): MemoryCollectionStats;
}

interface State {
  collections: Map<string, MemoryCollection>;
  seq: number;
  lastMs: number;
  plan: QueryPlan | null;
}

type Undo = () => void;

/** Everything stays inside this process: leases and notifications cover only it. */
const MEMORY_CAPABILITIES: DriverCapabilities = Object.freeze({ sharedLeases: false, notifications: true, fullText: true });

/**
 * The in-memory driver: indexed (an `eq`/`in` filter reads only the matching rows), insertion-ordered by a
 * monotonic sequence, keyset cursors. `transaction` serialises transactions and undoes their writes when
 * `fn` throws; it does not isolate them from writes made outside the transaction.
 */
export function createMemoryDriver(options: MemoryDriverOptions = {}): MemoryDriver {
  const now = options.now ?? Date.now;
  const generateId = options.generateId ?? (() => crypto.randomUUID());
  const leases = options.leases ?? createMemoryLeases({ now });
  const notifications = createMemoryNotifications(options.onError ? { onError: options.onError } : {});
  const state: State = { collections: new Map(), seq: 0, lastMs: 0, plan: null };
  let tail: Promise<unknown> = Promise.resolve();

  const collection = (name: string, create: boolean) => {
    let c = state.collections.get(name);
    if (!c && create) state.collections.set(name, (c = new MemoryCollection(name)));
    return c;
  };
  let iso = { ms: -1, text: '' };
  const timestamp = () => {
    state.lastMs = Math.max(state.lastMs, now());
    if (iso.ms !== state.lastMs) iso = { ms: state.lastMs, text: new Date(state.lastMs).toISOString() };
    return iso.text;
  };

  const isMemoryLeases = (l: TurnLeases): l is MemoryLeases => typeof (l as Partial<MemoryLeases>).withinTransaction === 'function';

  /** `tx`: the transaction's undo log and a promise settling when it ended; null outside transactions. */
  function build(tx: { undo: Undo[]; ended: Promise<unknown> } | null): MemoryDriver {
    const undo = tx?.undo ?? null;
    const driver: MemoryDriver = {
      name: 'memory',
      capabilities: MEMORY_CAPABILITIES,
      leases: tx && isMemoryLeases(leases) ? leases.withinTransaction(tx.ended) : leases,
      notifications,
      async insert(name, input) {
        const c = collection(name, true) as MemoryCollection;
        const recordId = input.recordId ?? generateId();
        const existing = c.byId.get(recordId);
        if (existing) {
          if (jsonEqual(existing.data, input.data)) return { record: toEnvelope(existing), created: false };
          throw new ChatwireError(
            'CONFLICT',
            `Record "${recordId}" already exists in collection "${name}" with different data`,
            { details: { collection: name, recordId } },
          );
        }
        const at = timestamp();
        const row: MemoryRow = {
          recordId,
          seq: ++state.seq,
          data: cloneJson(input.data),
          createdAt: at,
          updatedAt: at,
        };
        c.add(row);
        undo?.push(() => c.remove(row));
        return { record: toEnvelope(row), created: true };
      },
      async get(name, recordId) {
        const row = collection(name, false)?.byId.get(recordId);
        return row ? toEnvelope(row) : null;
      },
      async query(name, query) {
        const c = collection(name, false) ?? new MemoryCollection(name);
        const result = c.query(query);
        state.plan = result.plan;
        return { records: result.rows.map(toEnvelope), nextCursor: result.nextCursor };
      },
      async update(name, recordId, patch) {
        const c = collection(name, false);
        const row = c?.byId.get(recordId);
        if (!c || !row) return null;
        const before = { data: row.data, updatedAt: row.updatedAt };
        c.setData(row, { ...row.data, ...cloneJson(patch) }, timestamp());
        undo?.push(() => c.setData(row, before.data, before.updatedAt));
        return toEnvelope(row);
      },
      async delete(name, recordId) {
        const c = collection(name, false);
        const row = c?.byId.get(recordId);
        if (!c || !row) return false;
        c.remove(row);
        undo?.push(() => c.add(row));
        return true;
      },
      async deleteWhere(name, filter) {
        const c = collection(name, false);
        if (!c) return 0;
        const { rows: doomed, plan } = c.select(filter);
        state.plan = plan;
        for (const row of doomed) c.remove(row);
        undo?.push(() => doomed.forEach((row) => c.add(row)));
        return doomed.length;
      },
      transaction(fn) {
        if (undo) return fn(driver); // nested: part of the enclosing transaction
        const run = tail.then(async () => {
          const log: Undo[] = [];
          let end!: () => void;
          const ended = new Promise<void>((resolve) => (end = resolve));
          try {
            return await fn(build({ undo: log, ended }));
          } catch (error) {
            for (const step of log.reverse()) step();
            throw error;
          } finally {
            end();
          }
        });
        tail = run.catch(() => undefined);
        return run;
      },
      async search(query) {
        return searchMemory(query, (name) => collection(name, false));
      },
      lastQueryPlan: () => state.plan,
      stats() {
        const total: MemoryCollectionStats = { rows: 0, indexEntries: 0, indexValues: 0 };
        for (const c of state.collections.values()) {
          const one = c.stats();
          total.rows += one.rows;
          total.indexEntries += one.indexEntries;
          total.indexValues += one.indexValues;
        }
        return total;
      },
      async close() {},
    };
    return driver;
  }

  return build(null);
}
