export { createS3BlobStore } from './create-s3-blob-store.js';
export type { S3BlobStoreOptions } from './create-s3-blob-store.js';
