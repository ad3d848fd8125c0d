import { ChatwireError } from '../chatwire-error.js';
import type { TurnLease, TurnLeases } from '../turn-leases.js';

export interface MemoryLeasesOptions {
  /** Clock in milliseconds (default `Date.now`); inject one to test expiry without waiting. */
  now?: () => number;
}

/** In-process leases, plus the view a memory transaction hands out as `tx.leases`. */
export interface MemoryLeases extends TurnLeases {
  /**
   * The same leases seen from inside a transaction: a `holds` that answers true keeps the lease from
   * being taken over (a competing `acquire` waits) until `ended` settles.
   */
  withinTransaction(ended: Promise<unknown>): TurnLeases;
}

interface Held {
  holder: string;
  expiresAt: number;
}

function checkAcquire(key: unknown, ttlMs: unknown): void {
  if (typeof key !== 'string' || key.length === 0) {
    throw new ChatwireError('VALIDATION', 'Lease key must be a non-empty string', { details: { field: 'key' } });
  }
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new ChatwireError('VALIDATION', `Lease ttlMs must be a positive number (key "${key}")`, {
      details: { field: 'ttlMs' },
    });
  }
}

/**
 * In-process turn leases. `acquire` returns null while another holder's lease is live; an expired lease
 * can be taken over. `renew` extends by the original ttl and returns false once the lease was released or
 * taken over (a holder whose lease expired but was not taken over can still renew). `release` by a holder
 * that lost the lease does nothing. A released or expired key keeps nothing in memory once released.
 */
export function createMemoryLeases(options: MemoryLeasesOptions = {}): MemoryLeases {
  const now = options.now ?? Date.now;
  const held = new Map<string, Held>();
  /** Keys a transaction checked with `holds`: acquire waits until those transactions end. */
  const pinned = new Map<string, Set<Promise<unknown>>>();

  const holds = async (key: string, holder: string) => {
    const entry = held.get(key);
    return entry !== undefined && entry.holder === holder && entry.expiresAt > now();
  };

  const isHeld = async (key: string) => {
    const entry = held.get(key);
    return entry !== undefined && entry.expiresAt > now();
  };

  /** `own`: the calling transaction, whose own pin does not make it wait (it would wait for itself). */
  async function acquire(key: string, ttlMs: number, own?: Promise<unknown>): Promise<TurnLease | null> {
    checkAcquire(key, ttlMs);
    for (;;) {
      const others = [...(pinned.get(key) ?? [])].filter((pin) => pin !== own);
      if (others.length === 0) break;
      await Promise.allSettled(others);
    }
    const current = held.get(key);
    if (current && current.expiresAt > now()) return null;
    const holder = crypto.randomUUID();
    held.set(key, { holder, expiresAt: now() + ttlMs });
    return {
      key,
      holder,
      async renew() {
        const entry = held.get(key);
        if (!entry || entry.holder !== holder) return false;
        entry.expiresAt = now() + ttlMs;
        return true;
      },
      async release() {
        if (held.get(key)?.holder === holder) held.delete(key);
      },
    };
  }

  return {
    acquire: (key, options) => acquire(key, options?.ttlMs),
    holds,
    isHeld,
    withinTransaction(ended) {
      return {
        acquire: (key, options) => acquire(key, options?.ttlMs, ended),
        isHeld,
        async holds(key, holder) {
          if (!(await holds(key, holder))) return false;
          let pins = pinned.get(key);
          if (!pins) pinned.set(key, (pins = new Set()));
          if (!pins.has(ended)) {
            pins.add(ended);
            const unpin = () => {
              pins.delete(ended);
              if (pins.size === 0 && pinned.get(key) === pins) pinned.delete(key);
            };
            ended.then(unpin, unpin);
          }
          return true;
        },
      };
    },
  };
}
