import type { Caller } from '../caller.js';
import type { CollectionDefinition } from '../collection-definition.js';
import type { AccessQuery, RecordAccess } from '../record-access.js';
import type { Filter } from '../filter.js';
import type { RecordData, RecordEnvelope } from '../record-envelope.js';
import type { QueryPage, StoreDriver } from '../store-driver.js';
import { ChatwireError } from '../chatwire-error.js';
import { isPlainObject } from '../json-value.js';
import { forbidden, invalid, notFound } from './errors.js';
import { gate, ownerFieldOf, rowAllowed, usesOwnRule } from './rules.js';
import type { StoreLimits } from './store-limits.js';
import { checkRecordSize, validateData, validateRecordId } from './validate-record.js';
import { validateFilter } from './validate-query.js';
import { runQuery } from './run-query.js';
import { runSearch, type AccessSearchOptions, type AccessSearchPage } from './run-search.js';
import type { SearchSource } from '../search/driver-search.js';

export interface AccessContext {
  driver: StoreDriver;
  limits: StoreLimits;
  /** The registered definition; VALIDATION when unknown. */
  lookup(collection: string): CollectionDefinition;
  all(): CollectionDefinition[];
}

type Envelope<T extends RecordData> = RecordEnvelope<T>;
const cast = <T extends RecordData>(record: RecordEnvelope): Envelope<T> => record as Envelope<T>;

/** The one access layer above every driver: validation always, rules unless `caller` is null (server). */
export function createRecordAccess(ctx: AccessContext, caller: Caller | null): RecordAccess {
  return new RecordAccessLayer(ctx, caller);
}

/** Where an access keeps its context: not a `#private` field, so a `Proxy` around an access still works. */
const CTX = Symbol('chatwire.accessContext');

/**
 * The driver an access runs on (inside `transaction`, that transaction's driver), or null for an object that
 * is not a record access. For stores that join record transactions (`BlobStore.joinTransaction`).
 */
export function accessDriver(access: RecordAccess): StoreDriver | null {
  return (access as Partial<RecordAccessLayer> | null)?.[CTX]?.driver ?? null;
}

/** A row the caller may read and act on with `op`, or NOT_FOUND. */
async function loadForWrite(ctx: AccessContext, caller: Caller | null, def: CollectionDefinition, recordId: string, op: 'update' | 'delete') {
  const row = await ctx.driver.get(def.name, recordId);
  if (!row) throw notFound(def.name, recordId);
  if (caller) {
    const visible = rowAllowed(gate(def.rules.read, caller), def, row.data, caller);
    if (!visible || !rowAllowed(gate(def.rules[op], caller), def, row.data, caller)) throw notFound(def.name, recordId);
  }
  return row;
}

function denyAtCollection(caller: Caller | null, def: CollectionDefinition, op: 'read' | 'create' | 'update' | 'delete', action: string) {
  if (caller && gate(def.rules[op], caller) === 'deny') throw forbidden(def.name, action);
}

async function findRow(ctx: AccessContext, caller: Caller | null, collection: string, recordId: string): Promise<RecordEnvelope | null> {
  const def = ctx.lookup(collection);
  const id = validateRecordId(collection, recordId);
  denyAtCollection(caller, def, 'read', 'read records');
  const row = await ctx.driver.get(collection, id);
  if (!row || (caller && !rowAllowed(gate(def.rules.read, caller), def, row.data, caller))) return null;
  return row;
}

function visibleCollections(ctx: AccessContext, caller: Caller | null): CollectionDefinition[] {
  if (!caller) return ctx.all();
  return ctx.all().filter(
    (def) => !def.hidden && (gate(def.rules.read, caller) !== 'deny' || gate(def.rules.create, caller) !== 'deny'),
  );
}

/**
 * One class, its methods on the prototype: `asCaller()` runs on every request, and building an object of
 * a dozen closures each time cost about as much as the rest of a listing's access checks. Methods call
 * the module's helpers, never each other through `this`, as the closures did.
 */
class RecordAccessLayer implements RecordAccess {
  readonly [CTX]: AccessContext;
  readonly caller: Caller | null;

  constructor(ctx: AccessContext, caller: Caller | null) {
    this[CTX] = ctx;
    this.caller = caller;
  }

  async create<T extends RecordData = RecordData>(
    collection: string,
    data: RecordData,
    options?: { recordId?: string },
  ): Promise<Envelope<T>> {
    const ctx = this[CTX];
    const caller = this.caller;
    const def = ctx.lookup(collection);
    denyAtCollection(caller, def, 'create', 'create records');
    if (options !== undefined && !isPlainObject(options)) throw invalid(collection, undefined, 'options must be an object');
    const recordId = options?.recordId === undefined ? undefined : validateRecordId(collection, options.recordId);
    const owner = ownerFieldOf(def);
    let input: unknown = data;
    if (caller && owner && usesOwnRule(def) && isPlainObject(data) && (data[owner] === undefined || data[owner] === null)) {
      input = { ...data, [owner]: caller.userId };
    }
    const clean = validateData(def, input, 'create', ctx.limits);
    if (caller && !rowAllowed(gate(def.rules.create, caller), def, clean, caller)) {
      throw forbidden(collection, 'create records owned by another user');
    }
    const { record } = await ctx.driver.insert(collection, recordId === undefined ? { data: clean } : { recordId, data: clean });
    return cast(record);
  }

  async find<T extends RecordData = RecordData>(collection: string, recordId: string): Promise<Envelope<T> | null> {
    const row = await findRow(this[CTX], this.caller, collection, recordId);
    return row && cast(row);
  }

  async findMany<T extends RecordData = RecordData>(collection: string, recordIds: readonly string[]): Promise<Map<string, Envelope<T>>> {
    const ctx = this[CTX];
    const caller = this.caller;
    const def = ctx.lookup(collection);
    if (!Array.isArray(recordIds) || recordIds.length > ctx.limits.maxQueryLimit) {
      throw invalid(collection, 'recordIds', `findMany takes at most ${ctx.limits.maxQueryLimit} record ids`);
    }
    const ids = [...new Set(recordIds.map((id) => validateRecordId(collection, id)))];
    denyAtCollection(caller, def, 'read', 'read records');
    const driver = ctx.driver;
    const rows = driver.getMany
      ? await driver.getMany(collection, ids)
      : (await Promise.all(ids.map((id) => driver.get(collection, id)))).filter((row) => row !== null);
    const found = new Map<string, Envelope<T>>();
    for (const row of rows) {
      if (caller && !rowAllowed(gate(def.rules.read, caller), def, row.data, caller)) continue;
      found.set(row.recordId, cast(row));
    }
    return found;
  }

  async get<T extends RecordData = RecordData>(collection: string, recordId: string): Promise<Envelope<T>> {
    const row = await findRow(this[CTX], this.caller, collection, recordId);
    if (!row) throw notFound(collection, recordId);
    return cast(row);
  }

  async query<T extends RecordData = RecordData>(collection: string, query?: AccessQuery): Promise<QueryPage<T>> {
    const ctx = this[CTX];
    const caller = this.caller;
    const def = ctx.lookup(collection);
    denyAtCollection(caller, def, 'read', 'read records');
    const page = await runQuery(ctx.driver, def, query, ctx.limits, caller ? gate(def.rules.read, caller) : 'allow', caller);
    return page as QueryPage<never>;
  }

  async update<T extends RecordData = RecordData>(collection: string, recordId: string, patch: RecordData): Promise<Envelope<T>> {
    const ctx = this[CTX];
    const caller = this.caller;
    const def = ctx.lookup(collection);
    const id = validateRecordId(collection, recordId);
    denyAtCollection(caller, def, 'update', 'update records');
    const clean = validateData(def, patch, 'patch', ctx.limits);
    const row = await loadForWrite(ctx, caller, def, id, 'update');
    const owner = ownerFieldOf(def);
    if (owner && owner in clean && clean[owner] !== row.data[owner]) {
      throw new ChatwireError('FORBIDDEN', `The owner field "${owner}" of collection "${collection}" cannot change`, {
        details: { collection, field: owner },
      });
    }
    checkRecordSize(def, { ...row.data, ...clean }, ctx.limits);
    const updated = await ctx.driver.update(collection, id, clean);
    if (!updated) throw notFound(collection, id);
    return cast(updated);
  }

  async delete(collection: string, recordId: string): Promise<void> {
    const ctx = this[CTX];
    const caller = this.caller;
    const def = ctx.lookup(collection);
    const id = validateRecordId(collection, recordId);
    denyAtCollection(caller, def, 'delete', 'delete records');
    await loadForWrite(ctx, caller, def, id, 'delete');
    if (!(await ctx.driver.delete(collection, id))) throw notFound(collection, id);
  }

  async deleteWhere(collection: string, filter: Filter): Promise<number> {
    const ctx = this[CTX];
    const def = ctx.lookup(collection);
    if (this.caller) throw forbidden(collection, 'delete by filter (server only)');
    const clean = validateFilter(def, filter);
    if (Object.keys(clean).length === 0) throw invalid(collection, undefined, 'deleteWhere needs at least one condition');
    return ctx.driver.deleteWhere(collection, clean);
  }

  async search(sources: readonly SearchSource[], text: string, options?: AccessSearchOptions): Promise<AccessSearchPage> {
    return runSearch(this[CTX], this.caller, sources, text, options);
  }

  async holdsLease(lease: { key: string; holder: string }): Promise<boolean> {
    if (typeof lease?.key !== 'string' || typeof lease.holder !== 'string') {
      throw invalid(undefined, 'lease', 'holdsLease needs a lease { key, holder }');
    }
    return this[CTX].driver.leases.holds(lease.key, lease.holder);
  }

  async transaction<T>(fn: (access: RecordAccess) => Promise<T>): Promise<T> {
    const ctx = this[CTX];
    const caller = this.caller;
    return ctx.driver.transaction((tx) => fn(new RecordAccessLayer({ ...ctx, driver: tx }, caller)));
  }

  listCollections(): CollectionDefinition[] {
    return visibleCollections(this[CTX], this.caller);
  }

  describe(collection: string): CollectionDefinition {
    const def = visibleCollections(this[CTX], this.caller).find((d) => d.name === collection);
    if (!def) {
      throw new ChatwireError('NOT_FOUND', `Unknown collection "${collection}"`, { details: { collection } });
    }
    return def;
  }
}
