import { checkNotification, checkSubscription, type DriverNotifications } from '@chatwire/storage';
import { mapPgError } from './map-pg-error.js';
import type { SqlClient, SqlExecutor } from './sql-executor.js';
import type { TableNames } from './table-names.js';

type Listen = NonNullable<SqlExecutor['listen']>;

/**
 * Notifications over LISTEN/NOTIFY. A channel becomes `cw_` + 32 hex digits of the SHA-256 of the
 * driver's schema, table prefix and the channel: a plain identifier whatever the name (quotes, length,
 * case), the same in every process, and separate for two chatwire stores sharing a database.
 */
export function createSqlNotifications(
  client: SqlClient,
  listen: Listen,
  t: TableNames,
  onError: (error: unknown) => void,
): DriverNotifications {
  const namespace = `${t.raw.schema}.${t.raw.records}\n`;
  const names = new Map<string, string>();
  async function pgChannel(channel: string): Promise<string> {
    const known = names.get(channel);
    if (known) return known;
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(namespace + channel));
    const hex = Array.from(new Uint8Array(digest).subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
    const name = `cw_${hex}`;
    if (names.size >= 10_000) names.clear(); // a bounded cache
    names.set(channel, name);
    return name;
  }

  return {
    async publish(channel, payload) {
      checkNotification(channel, payload);
      const name = await pgChannel(channel);
      try {
        await client.query('SELECT pg_notify($1, $2)', [name, payload]);
      } catch (error) {
        throw mapPgError(error, undefined);
      }
    },
    async subscribe(channel, listener) {
      checkSubscription(channel, listener);
      const name = await pgChannel(channel);
      const safe = (payload: string) => {
        try {
          listener(payload);
        } catch (error) {
          onError(error);
        }
      };
      try {
        return await listen(name, safe);
      } catch (error) {
        throw mapPgError(error, undefined);
      }
    },
  };
}
