import { createRecordStore, type RecordStore, type StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { NOTES, USERS } from './example-collections.js';

/**
 * PostgreSQL when DATABASE_URL is set (the driver is loaded only then), memory otherwise; with the demo
 * collections registered.
 */
export async function createExampleStore(env: Record<string, string | undefined>): Promise<{ store: RecordStore; storage: string }> {
  const url = env.DATABASE_URL;
  let driver: StoreDriver;
  if (url) {
    const { createPostgresDriver } = await import('@chatwire/postgres');
    driver = createPostgresDriver({ connectionString: url });
  } else {
    driver = createMemoryDriver();
  }
  const store = createRecordStore({ driver, collections: [NOTES, USERS] });
  return { store, storage: url ? 'postgres (DATABASE_URL)' : 'memory (lost on restart; set DATABASE_URL for postgres)' };
}
