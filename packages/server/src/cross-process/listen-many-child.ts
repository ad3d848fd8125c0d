/**
 * Child of `notification-listener-queries.test.ts` (run with `--conditions=@chatwire/source --import tsx`):
 * subscribes to many channels of one PostgreSQL driver at once, then unsubscribes them all at once, and
 * exits. pg prints its warning on stderr when a query is sent on a client that is still executing one.
 */
import { createPostgresDriver } from '@chatwire/postgres';

const driver = createPostgresDriver({ connectionString: process.env.CW_DATABASE_URL!, tablePrefix: 'cw_listen_many_' });
const notifications = driver.notifications!;
const unsubscribes = await Promise.all(Array.from({ length: 20 }, (_, i) => notifications.subscribe(`listen-many-${i}`, () => undefined)));
await Promise.all(unsubscribes.map((unsubscribe) => unsubscribe()));
await driver.close();
process.stdout.write('done\n');
