import { ChatwireError } from '@chatwire/storage';
import type { TurnLease, TurnLeases } from '@chatwire/storage';
import { checkText } from './check-storable.js';
import { mapPgError } from './map-pg-error.js';
import type { SqlExecutor } from './sql-executor.js';
import type { TableNames } from './table-names.js';

/**
 * Turn leases in the `<prefix>leases` table, shared by every process on the database. The database
 * clock decides expiry. `acquire` is one atomic upsert that only takes over an expired row; `renew` and
 * `release` touch the row only while it still carries this lease's holder id.
 */
export function createSqlLeases(executor: SqlExecutor, t: TableNames, ready: () => Promise<void>): TurnLeases {
  const run = async <R extends object>(text: string, params: string[]) => {
    await ready();
    try {
      return await executor.query<R>(text, params);
    } catch (error) {
      throw mapPgError(error, undefined);
    }
  };
  const expiry = `clock_timestamp() + $3::double precision * interval '1 millisecond'`;

  return {
    async acquire(key, { ttlMs }) {
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
      const lease: TurnLease = {
        key,
        async renew() {
          const renewed = await run(
            `UPDATE ${t.leases} SET expires_at = ${expiry} WHERE key = $1 AND holder = $2`,
            [key, holder, ttl],
          );
          return renewed.rowCount > 0;
        },
        async release() {
          await run(`DELETE FROM ${t.leases} WHERE key = $1 AND holder = $2`, [key, holder]);
        },
      };
      return lease;
    },
  };
}
