import { ChatwireError } from '@chatwire/storage';
import type { TurnLease, TurnLeases } from '@chatwire/storage';
import { checkText } from './check-storable.js';
import type { SqlResult } from './sql-executor.js';
import type { TableNames } from './table-names.js';

/** Runs one statement (errors already mapped), on the pool or inside one transaction. */
export type LeaseStatement = <R extends object>(text: string, params: string[]) => Promise<SqlResult<R>>;

/**
 * Turn leases in the `<prefix>leases` table, shared by every process on the database. The database
 * clock decides expiry. `acquire` is one atomic upsert that only takes over an expired row; `renew` and
 * `release` touch the row only while it still carries this lease's holder id. `inTransaction`: the
 * statements run in a transaction, and `holds` locks the lease row (`FOR UPDATE`) so that no other
 * connection can take the lease over before that transaction ends.
 */
export function createSqlLeases(run: LeaseStatement, t: TableNames, options: { inTransaction: boolean }): TurnLeases {
  const expiry = `clock_timestamp() + $3::double precision * interval '1 millisecond'`;
  const lock = options.inTransaction ? ' FOR UPDATE' : '';

  return {
    async acquire(key, { ttlMs } = { ttlMs: Number.NaN }) {
      if (typeof key !== 'string' || key.length === 0) {
        throw new ChatwireError('VALIDATION', 'Lease key must be a non-empty string', { details: { field: 'key' } });
      }
      checkText(key, 'Lease key');
      if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
        throw new ChatwireError('VALIDATION', `Lease ttlMs must be a positive number (key ${JSON.stringify(key)})`, {
          details: { field: 'ttlMs' },
        });
      }
      const holder = crypto.randomUUID();
      const ttl = String(ttlMs);
      const taken = await run(
        `INSERT INTO ${t.leases} AS l (key, holder, expires_at) VALUES ($1, $2, ${expiry})
         ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE l.expires_at <= clock_timestamp()
         RETURNING holder`,
        [key, holder, ttl],
      );
      if (taken.rows.length === 0) return null;
      let released = false;
      const lease: TurnLease = {
        key,
        holder,
        async renew() {
          if (released) return false;
          const renewed = await run(
            `UPDATE ${t.leases} SET expires_at = ${expiry} WHERE key = $1 AND holder = $2`,
            [key, holder, ttl],
          );
          return renewed.rowCount > 0;
        },
        async release() {
          if (released) return;
          await run(`DELETE FROM ${t.leases} WHERE key = $1 AND holder = $2`, [key, holder]);
          released = true;
        },
      };
      return lease;
    },

    async isHeld(key) {
      if (typeof key !== 'string' || key === '') return false;
      checkText(key, 'Lease key');
      const row = await run(`SELECT 1 AS held FROM ${t.leases} WHERE key = $1 AND expires_at > clock_timestamp()`, [key]);
      return row.rows.length > 0;
    },

    async holds(key, holder) {
      if (typeof key !== 'string' || typeof holder !== 'string' || key === '' || holder === '') return false;
      checkText(key, 'Lease key');
      checkText(holder, 'Lease holder');
      const row = await run(
        `SELECT 1 AS held FROM ${t.leases} WHERE key = $1 AND holder = $2 AND expires_at > clock_timestamp()${lock}`,
        [key, holder],
      );
      return row.rows.length > 0;
    },
  };
}
