import { ChatwireError } from '../chatwire-error.js';
import type { TurnLease, TurnLeases } from '../turn-leases.js';

export interface MemoryLeasesOptions {
  /** Clock in milliseconds (default `Date.now`); inject one to test expiry without waiting. */
  now?: () => number;
}

/**
 * In-process turn leases. `acquire` returns null while another holder's lease is live; an expired lease
 * can be taken over. `renew` extends by the original ttl and returns false once the lease was released or
 * taken over (a holder whose lease expired but was not taken over can still renew). `release` by a holder
 * that lost the lease does nothing.
 */
export function createMemoryLeases(options: MemoryLeasesOptions = {}): TurnLeases {
  const now = options.now ?? Date.now;
  const held = new Map<string, { token: symbol; expiresAt: number }>();

  return {
    async acquire(key, { ttlMs }) {
      if (typeof key !== 'string' || key.length === 0) {
        throw new ChatwireError('VALIDATION', 'Lease key must be a non-empty string', { details: { field: 'key' } });
      }
      if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
        throw new ChatwireError('VALIDATION', `Lease ttlMs must be a positive number (key "${key}")`, {
          details: { field: 'ttlMs' },
        });
      }
      const current = held.get(key);
      if (current && current.expiresAt > now()) return null;
      const token = Symbol(key);
      held.set(key, { token, expiresAt: now() + ttlMs });
      const lease: TurnLease = {
        key,
        async renew() {
          const entry = held.get(key);
          if (!entry || entry.token !== token) return false;
          entry.expiresAt = now() + ttlMs;
          return true;
        },
        async release() {
          if (held.get(key)?.token === token) held.delete(key);
        },
      };
      return lease;
    },
  };
}
