import { createMemoryBlobStore, type BlobStore } from '@chatwire/storage';

/**
 * Where the example keeps attachment bytes: PostgreSQL (`bytea`, the same database as the rows) when
 * DATABASE_URL is set (the driver is loaded only then), memory otherwise.
 */
export async function createExampleBlobs(env: Record<string, string | undefined>): Promise<{ blobs: BlobStore; storage: string }> {
  const url = env.DATABASE_URL;
  if (!url) return { blobs: createMemoryBlobStore(), storage: 'memory' };
  const { createPostgresBlobStore } = await import('@chatwire/postgres');
  return { blobs: createPostgresBlobStore({ connectionString: url, max: 4 }), storage: 'postgres bytea (DATABASE_URL)' };
}
