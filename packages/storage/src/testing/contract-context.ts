import { expect } from 'vitest';
import { ChatwireError, type ChatwireErrorCode } from '../chatwire-error.js';
import type { CollectionDefinition } from '../collection-definition.js';
import { createRecordStore, type RecordStore } from '../create-record-store.js';
import type { RecordData } from '../record-envelope.js';
import type { DriverQuery, StoreDriver } from '../store-driver.js';

export interface StoreContractOptions {
  /** Shown in the suite name, e.g. `memory`, `postgres (PGlite)`. */
  name: string;
  /** Called once for the whole suite; every test uses its own collection names. */
  createDriver: () => StoreDriver | Promise<StoreDriver>;
  /** Called once at the end; defaults to `driver.close()`. */
  cleanup?: (driver: StoreDriver) => Promise<void>;
}

/** What each contract section gets: the driver under test and unique collection names. */
export interface ContractContext {
  readonly driver: StoreDriver;
  /** A collection name no other test uses (matches the collection-name pattern). */
  collection(label: string): string;
  /** A record store over the driver with the given collections. */
  store(collections: CollectionDefinition[]): RecordStore;
}

export async function insertAll(driver: StoreDriver, collection: string, rows: RecordData[], ids?: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const [i, data] of rows.entries()) {
    const id = ids?.[i];
    const { record } = await driver.insert(collection, id === undefined ? { data } : { recordId: id, data });
    out.push(record.recordId);
  }
  return out;
}

/** Follows cursors to the end; `between` runs after each page (e.g. to insert rows). */
export async function readAllPages(
  driver: StoreDriver,
  collection: string,
  query: Omit<DriverQuery, 'cursor'>,
  between?: (page: number) => Promise<void>,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const result = await driver.query(collection, cursor === undefined ? query : { ...query, cursor });
    ids.push(...result.records.map((r) => r.recordId));
    if (result.nextCursor === null) return ids;
    expect(result.records.length).toBe(query.limit);
    cursor = result.nextCursor;
    await between?.(page);
  }
  throw new Error('pagination did not end');
}

export async function queryIds(driver: StoreDriver, collection: string, query: Partial<DriverQuery> = {}): Promise<string[]> {
  const page = await driver.query(collection, { limit: 1000, ...query });
  return page.records.map((r) => r.recordId);
}

/** Runs `fn` and returns the ChatwireError code it threw, or 'OK'. Other errors fail the test. */
export async function outcome(fn: () => Promise<unknown>): Promise<ChatwireErrorCode | 'OK'> {
  try {
    await fn();
    return 'OK';
  } catch (error) {
    if (ChatwireError.is(error)) return error.code;
    throw error;
  }
}

export async function expectChatwireError(
  fn: () => Promise<unknown>,
  code: ChatwireErrorCode,
  details?: Record<string, unknown>,
): Promise<ChatwireError> {
  let caught: unknown;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  expect(ChatwireError.is(caught), `expected ChatwireError ${code}, got ${String(caught)}`).toBe(true);
  const error = caught as ChatwireError;
  expect(error.code, error.message).toBe(code);
  if (details) expect(error.details).toMatchObject(details);
  return error;
}

export function makeContext(getDriver: () => StoreDriver): ContractContext {
  const run = Math.random().toString(36).slice(2, 8);
  let n = 0;
  return {
    get driver() {
      return getDriver();
    },
    collection: (label) => `cw-${label.replace(/[^A-Za-z0-9]/g, '').slice(0, 24)}-${run}-${++n}`,
    store: (collections) => createRecordStore({ driver: getDriver(), collections }),
  };
}
