import type { Caller } from '../caller.js';
import type { CollectionDefinition } from '../collection-definition.js';
import type { RecordAccess } from '../record-access.js';
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
  const { driver, limits } = ctx;

  /** A row the caller may read and act on with `op`, or NOT_FOUND. */
  async function loadForWrite(def: CollectionDefinition, recordId: string, op: 'update' | 'delete') {
    const row = await driver.get(def.name, recordId);
    if (!row) throw notFound(def.name, recordId);
    if (caller) {
      const visible = rowAllowed(gate(def.rules.read, caller), def, row.data, caller);
      if (!visible || !rowAllowed(gate(def.rules[op], caller), def, row.data, caller)) throw notFound(def.name, recordId);
    }
    return row;
  }

  function denyAtCollection(def: CollectionDefinition, op: 'read' | 'create' | 'update' | 'delete', action: string) {
    if (caller && gate(def.rules[op], caller) === 'deny') throw forbidden(def.name, action);
  }

  const access: RecordAccess = {
    caller,

    async create(collection, data, options) {
      const def = ctx.lookup(collection);
      denyAtCollection(def, 'create', 'create records');
      if (options !== undefined && !isPlainObject(options)) throw invalid(collection, undefined, 'options must be an object');
      const recordId = options?.recordId === undefined ? undefined : validateRecordId(collection, options.recordId);
      const owner = ownerFieldOf(def);
      let input: unknown = data;
      if (caller && owner && usesOwnRule(def) && isPlainObject(data) && (data[owner] === undefined || data[owner] === null)) {
        input = { ...data, [owner]: caller.userId };
      }
      const clean = validateData(def, input, 'create', limits);
      if (caller && !rowAllowed(gate(def.rules.create, caller), def, clean, caller)) {
        throw forbidden(collection, 'create records owned by another user');
      }
      const { record } = await driver.insert(collection, recordId === undefined ? { data: clean } : { recordId, data: clean });
      return cast(record);
    },

    async find(collection, recordId) {
      const def = ctx.lookup(collection);
      const id = validateRecordId(collection, recordId);
      denyAtCollection(def, 'read', 'read records');
      const row = await driver.get(collection, id);
      if (!row || (caller && !rowAllowed(gate(def.rules.read, caller), def, row.data, caller))) return null;
      return cast(row);
    },

    async get(collection, recordId) {
      const row = await access.find(collection, recordId);
      if (!row) throw notFound(collection, recordId);
      return cast(row);
    },

    async query(collection, query) {
      const def = ctx.lookup(collection);
      denyAtCollection(def, 'read', 'read records');
      const page = await runQuery(driver, def, query, limits, caller ? gate(def.rules.read, caller) : 'allow', caller);
      return page as QueryPage<never>;
    },

    async update(collection, recordId, patch) {
      const def = ctx.lookup(collection);
      const id = validateRecordId(collection, recordId);
      denyAtCollection(def, 'update', 'update records');
      const clean = validateData(def, patch, 'patch', limits);
      const row = await loadForWrite(def, id, 'update');
      const owner = ownerFieldOf(def);
      if (owner && owner in clean && clean[owner] !== row.data[owner]) {
        throw new ChatwireError('FORBIDDEN', `The owner field "${owner}" of collection "${collection}" cannot change`, {
          details: { collection, field: owner },
        });
      }
      checkRecordSize(def, { ...row.data, ...clean }, limits);
      const updated = await driver.update(collection, id, clean);
      if (!updated) throw notFound(collection, id);
      return cast(updated);
    },

    async delete(collection, recordId) {
      const def = ctx.lookup(collection);
      const id = validateRecordId(collection, recordId);
      denyAtCollection(def, 'delete', 'delete records');
      await loadForWrite(def, id, 'delete');
      if (!(await driver.delete(collection, id))) throw notFound(collection, id);
    },

    async deleteWhere(collection, filter) {
      const def = ctx.lookup(collection);
      if (caller) throw forbidden(collection, 'delete by filter (server only)');
      const clean = validateFilter(def, filter);
      if (Object.keys(clean).length === 0) throw invalid(collection, undefined, 'deleteWhere needs at least one condition');
      return driver.deleteWhere(collection, clean);
    },

    async holdsLease(lease) {
      if (typeof lease?.key !== 'string' || typeof lease.holder !== 'string') {
        throw invalid(undefined, 'lease', 'holdsLease needs a lease { key, holder }');
      }
      return driver.leases.holds(lease.key, lease.holder);
    },

    async transaction(fn) {
      return driver.transaction((tx) => fn(createRecordAccess({ ...ctx, driver: tx }, caller)));
    },

    listCollections() {
      if (!caller) return ctx.all();
      return ctx.all().filter(
        (def) => !def.hidden && (gate(def.rules.read, caller) !== 'deny' || gate(def.rules.create, caller) !== 'deny'),
      );
    },

    describe(collection) {
      const def = access.listCollections().find((d) => d.name === collection);
      if (!def) {
        throw new ChatwireError('NOT_FOUND', `Unknown collection "${collection}"`, { details: { collection } });
      }
      return def;
    },
  };
  return access;
}
