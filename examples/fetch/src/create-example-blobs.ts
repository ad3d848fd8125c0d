import { createMemoryBlobStore, type BlobStore, type RecordStore } from '@chatwire/storage';

/**
 * Where the example keeps attachment bytes (each driver is loaded only when used):
 * - S3 (or an S3-compatible server) when `CHATWIRE_S3_BUCKET` is set: `CHATWIRE_S3_REGION` (default
 *   `AWS_REGION`, then `us-east-1`), `CHATWIRE_S3_ENDPOINT` (MinIO, R2...: path-style requests),
 *   `CHATWIRE_S3_PREFIX` (key prefix); credentials as the AWS SDK finds them (`AWS_ACCESS_KEY_ID` and
 *   `AWS_SECRET_ACCESS_KEY`, a profile, an instance role...);
 * - PostgreSQL (`bytea`) when the rows are there (DATABASE_URL): the same connections, so an upload's bytes
 *   and its row commit in one transaction;
 * - memory otherwise.
 */
export async function createExampleBlobs(env: Record<string, string | undefined>, store: RecordStore): Promise<{ blobs: BlobStore; storage: string }> {
  const bucket = env.CHATWIRE_S3_BUCKET;
  if (bucket) {
    const [{ S3Client }, { createS3BlobStore }] = await Promise.all([import('@aws-sdk/client-s3'), import('@chatwire/s3')]);
    const endpoint = env.CHATWIRE_S3_ENDPOINT || undefined;
    const accessKeyId = env.AWS_ACCESS_KEY_ID;
    const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
    const client = new S3Client({
      region: env.CHATWIRE_S3_REGION || env.AWS_REGION || 'us-east-1',
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      // The environment given (process.env when run) first; otherwise the SDK's own chain (profile, role...).
      ...(accessKeyId && secretAccessKey
        ? { credentials: { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } }
        : {}),
    });
    const prefix = env.CHATWIRE_S3_PREFIX ?? '';
    const s3 = createS3BlobStore({ client, bucket, prefix });
    const blobs: BlobStore = { ...s3, close: async () => client.destroy() };
    return { blobs, storage: `s3 bucket ${bucket}${prefix ? ` (prefix ${prefix})` : ''}${endpoint ? ` at ${endpoint}` : ''} (CHATWIRE_S3_BUCKET)` };
  }
  if (env.DATABASE_URL) {
    const { createPostgresBlobStore } = await import('@chatwire/postgres');
    return { blobs: createPostgresBlobStore({ driver: store.driver }), storage: 'postgres bytea, in the rows\' transactions (DATABASE_URL)' };
  }
  return { blobs: createMemoryBlobStore(), storage: 'memory' };
}
