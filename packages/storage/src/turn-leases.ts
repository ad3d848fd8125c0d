/**
 * One active turn per chat. `acquire` returns null when another holder has a live lease on the key.
 * A lease whose holder crashed expires after `ttlMs`; holders of long turns call `renew`.
 */
export interface TurnLease {
  readonly key: string;
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

export interface TurnLeases {
  acquire(key: string, options: { ttlMs: number }): Promise<TurnLease | null>;
}
