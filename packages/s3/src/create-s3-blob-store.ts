import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { BLOB_KEY_PATTERN, checkBlobKey, concatBytes, type BlobStore } from '@chatwire/storage';

export interface S3BlobStoreOptions {
  /** A client you configured (region, endpoint, credentials, `forcePathStyle` for most S3-compatible servers). */
  client: S3Client;
  bucket: string;
  /** Prepended to every key, e.g. `chatwire/`. Default none. */
  prefix?: string;
  /** Bytes per multipart part (at least 5 MiB, S3's minimum; default 5 MiB). */
  partBytes?: number;
}

const MIN_PART_BYTES = 5 * 1024 * 1024;

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, R2...). An upload under one part is one `PutObject`;
 * a larger one is a multipart upload, part by part as the bytes arrive (at most one part in memory), and
 * aborted when the body fails: S3 makes an object visible only once it is complete, so a failed upload
 * stores nothing and a failed replacement keeps the old object.
 *
 * It cannot join a record transaction: bytes are written before their row and deleted after the rows'
 * commit. `list` pages through the keys under `prefix` (1000 a request, with their `LastModified`), so
 * the attachment sweep finds bytes a crash left without a row; objects under the prefix whose names are
 * not blob keys are skipped.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const { client, bucket } = options;
  const prefix = options.prefix ?? '';
  const partBytes = Math.max(MIN_PART_BYTES, options.partBytes ?? MIN_PART_BYTES);
  const objectKey = (key: string) => `${prefix}${key}`;

  async function multipart(Key: string, first: Uint8Array, rest: AsyncIterator<Uint8Array>, pending: Uint8Array[], pendingBytes: number) {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key }));
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    let size = first.byteLength;
    const send = async (Body: Uint8Array) => {
      const PartNumber = parts.length + 1;
      const { ETag } = await client.send(new UploadPartCommand({ Bucket: bucket, Key, UploadId, PartNumber, Body }));
      parts.push({ ETag, PartNumber });
    };
    try {
      await send(first);
      for (;;) {
        const next = await rest.next();
        if (next.done) break;
        pending.push(next.value.slice());
        pendingBytes += next.value.byteLength;
        size += next.value.byteLength;
        if (pendingBytes >= partBytes) {
          const whole = concatBytes(pending, pendingBytes);
          pending = [whole.subarray(partBytes)];
          pendingBytes = whole.byteLength - partBytes;
          await send(whole.subarray(0, partBytes));
        }
      }
      if (pendingBytes > 0) await send(concatBytes(pending, pendingBytes));
      await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key, UploadId, MultipartUpload: { Parts: parts } }));
      return { size };
    } catch (error) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  return {
    name: 's3',
    async put(key, body) {
      checkBlobKey(key);
      const Key = objectKey(key);
      const iterator = body[Symbol.asyncIterator]();
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        pending.push(next.value.slice());
        pendingBytes += next.value.byteLength;
        if (pendingBytes >= partBytes) {
          const whole = concatBytes(pending, pendingBytes);
          pending = [whole.subarray(partBytes)];
          pendingBytes = whole.byteLength - partBytes;
          return multipart(Key, whole.subarray(0, partBytes), iterator, pending, pendingBytes);
        }
      }
      const bytes = concatBytes(pending, pendingBytes);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: bytes, ContentLength: bytes.byteLength }));
      return { size: bytes.byteLength };
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        if (!answer.Body) return new Uint8Array(0);
        return await answer.Body.transformToByteArray();
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      const Key = objectKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
      return true;
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(ContinuationToken ? { ContinuationToken } : {}) }));
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length);
          if (key && BLOB_KEY_PATTERN.test(key) && object.LastModified) yield { key, storedAt: object.LastModified };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
