import { ChatwireError } from '../chatwire-error.js';
import type { StoreDriver } from '../store-driver.js';

export type DriverOperation = 'insert' | 'get' | 'query' | 'update' | 'delete' | 'deleteWhere' | 'transaction' | 'search';

export interface FaultMatch {
  op?: DriverOperation;
  collection?: string;
  /** What to throw (default: `ChatwireError('INTERNAL', 'injected fault ...')`). */
  error?: unknown;
  /** `before` (default): the call fails without reaching the driver. `after`: the write happens, then the call fails (a lost acknowledgement). */
  when?: 'before' | 'after';
}

export interface FaultCall {
  op: DriverOperation;
  collection: string | undefined;
  outcome: 'ok' | 'failed' | 'injected';
}

export interface FaultControls {
  /** The next `n` calls matching `match` fail. */
  failNext(n: number, match?: FaultMatch): void;
  /** Every call of `op` fails until `reset()`. */
  failAlways(op: DriverOperation, match?: Omit<FaultMatch, 'op'>): void;
  /** Every call (of `op`, when given) waits `ms` first. */
  delay(ms: number, op?: DriverOperation): void;
  /** Drops every fault and delay and zeroes the counters. */
  reset(): void;
  /** Calls per operation since the last reset, injected failures included. */
  readonly calls: Readonly<Record<DriverOperation, number>>;
  /** Calls of `op`, optionally in one collection. */
  callCount(op: DriverOperation, collection?: string): number;
  /** Every call in order, with its outcome. */
  readonly log: readonly FaultCall[];
}

export type FaultyDriver = StoreDriver & FaultControls;

interface Rule {
  match: FaultMatch;
  remaining: number;
}

const OPS: DriverOperation[] = ['insert', 'get', 'query', 'update', 'delete', 'deleteWhere', 'transaction'];

/**
 * Wraps a driver for reliability tests: `failNext(2, { op: 'insert', collection: 'ai-messages' })` makes
 * the next two message inserts throw. Transactions hand `fn` a wrapped driver, so faults apply inside them.
 */
export function withFaults(driver: StoreDriver): FaultyDriver {
  let rules: Rule[] = [];
  let delays: { ms: number; op: DriverOperation | undefined }[] = [];
  const calls = Object.fromEntries(OPS.map((op) => [op, 0])) as Record<DriverOperation, number>;
  const log: FaultCall[] = [];

  function takeFault(op: DriverOperation, collection: string | undefined): Rule | undefined {
    const rule = rules.find(
      (r) => r.remaining > 0 && (!r.match.op || r.match.op === op) && (!r.match.collection || r.match.collection === collection),
    );
    if (rule) rule.remaining--;
    return rule;
  }

  async function call<T>(op: DriverOperation, collection: string | undefined, run: () => Promise<T>): Promise<T> {
    calls[op]++;
    const entry: FaultCall = { op, collection, outcome: 'ok' };
    log.push(entry);
    for (const d of delays) if (!d.op || d.op === op) await new Promise((r) => setTimeout(r, d.ms));
    const fault = takeFault(op, collection);
    const injected = () => {
      entry.outcome = 'injected';
      return fault?.match.error ?? new ChatwireError('INTERNAL', `injected fault: ${op}${collection ? ` on "${collection}"` : ''}`);
    };
    if (fault && fault.match.when !== 'after') throw injected();
    let result: T;
    try {
      result = await run();
    } catch (error) {
      entry.outcome = 'failed';
      throw error;
    }
    if (fault) throw injected();
    return result;
  }

  function wrap(inner: StoreDriver): StoreDriver {
    const tx = inner.transaction.bind(inner);
    return {
      name: `${inner.name}+faults`,
      capabilities: inner.capabilities,
      leases: inner.leases,
      ...(inner.notifications ? { notifications: inner.notifications } : {}),
      insert: (c, input) => call('insert', c, () => inner.insert(c, input)),
      get: (c, id) => call('get', c, () => inner.get(c, id)),
      query: (c, q) => call('query', c, () => inner.query(c, q)),
      update: (c, id, patch) => call('update', c, () => inner.update(c, id, patch)),
      delete: (c, id) => call('delete', c, () => inner.delete(c, id)),
      deleteWhere: (c, f) => call('deleteWhere', c, () => inner.deleteWhere(c, f)),
      ...(inner.search ? { search: (q) => call('search', undefined, () => inner.search!(q)) } : {}),
      transaction: (fn) => call('transaction', undefined, () => tx((t) => fn(wrap(t)))),
      ...(inner.close ? { close: () => inner.close?.() ?? Promise.resolve() } : {}),
    };
  }

  const controls: FaultControls = {
    failNext(n, match = {}) {
      rules.push({ match, remaining: n });
    },
    failAlways(op, match = {}) {
      rules.push({ match: { ...match, op }, remaining: Infinity });
    },
    delay(ms, op) {
      delays.push({ ms, op });
    },
    reset() {
      rules = [];
      delays = [];
      for (const op of OPS) calls[op] = 0;
      log.length = 0;
    },
    calls,
    callCount: (op, collection) => log.filter((e) => e.op === op && (collection === undefined || e.collection === collection)).length,
    log,
  };
  return Object.assign(wrap(driver), controls);
}
