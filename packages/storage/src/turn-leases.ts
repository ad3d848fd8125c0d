/**
 * Default turn lease ttl: a holder renews well within it, and the chats of a crashed process are free
 * again once it has passed (under 20 s).
 */
export const DEFAULT_TURN_LEASE_TTL_MS = 15_000;

/**
 * One active turn per chat. `acquire` returns null when another holder has a live lease on the key.
 * A lease whose holder crashed expires after `ttlMs`; holders of long turns call `renew`.
 */
export interface TurnLease {
  readonly key: string;
  /** Unique to this acquisition: what `holds` and a fenced save check. */
  readonly holder: string;
  /** Extends the lease by its ttl; false once it was released or taken over. */
  renew(): Promise<boolean>;
  /** Frees the key if this lease still holds it; safe to call any number of times. */
  release(): Promise<void>;
}

export interface TurnLeases {
  acquire(key: string, options: { ttlMs: number }): Promise<TurnLease | null>;
  /**
   * True only while `holder` holds a live (unexpired) lease on `key`. On a transaction's driver
   * (`tx.leases`) the check runs inside the transaction and keeps the lease from being taken over until
   * the transaction ends (PostgreSQL: the lease row is locked), so writes made after a true answer are
   * fenced: they commit while the lease is still this holder's.
   */
  holds(key: string, holder: string): Promise<boolean>;
  /**
   * True while anyone holds a live (unexpired) lease on `key`. Only reads: it never takes, extends or
   * frees a lease, so asking never makes a concurrent `acquire` fail (a probe that acquired would).
   */
  isHeld(key: string): Promise<boolean>;
}
