import type { BlobStore, RecordAccess } from '@chatwire/storage';
import { AI_ATTACHMENTS, type AttachmentData } from '../records/attachment-collection.js';
import type { AttachmentRow } from './create-attachment-service.js';
import { addUsage } from './attachment-usage.js';

/** A blob key of an upload: its attachment's record id, then 32 random characters (`blobKeyFor`). */
const UPLOAD_KEY = /^(att_[A-Za-z0-9_-]{22})[A-Za-z0-9_-]{32}$/;

/**
 * Deletes one attachment row, its usage and (with a store that joins the transaction) its bytes, in one
 * transaction; answers whether the bytes are still to be deleted after the commit.
 */
export async function deleteAttachmentRow(server: RecordAccess, blobs: BlobStore, row: AttachmentRow): Promise<boolean> {
  return server.transaction(async (tx) => {
    await tx.delete(AI_ATTACHMENTS, row.recordId);
    await addUsage(tx, row.data.userId, -row.data.size);
    const joined = blobs.joinTransaction?.(tx);
    if (!joined) return true;
    await joined.delete(row.data.blobKey);
    return false;
  });
}

/** Deletes uploads no stored message uses that were made before `before` (ISO); answers how many. */
export async function sweepUnattached(server: RecordAccess, blobs: BlobStore, before: string, onError: (error: unknown) => void): Promise<number> {
  let count = 0;
  for (;;) {
    const page = await server.query<AttachmentData>(AI_ATTACHMENTS, { filter: { messageId: { exists: false } }, limit: 200 });
    const old = page.records.filter((row) => row.createdAt < before);
    for (const row of old) {
      if (await deleteAttachmentRow(server, blobs, row)) await blobs.delete(row.data.blobKey).catch(onError);
      count++;
    }
    if (!page.nextCursor || old.length === 0) return count;
  }
}

/**
 * With a store that can `list`: deletes the bytes of uploads stored in [`after`, `before`) that have no
 * attachment row (a crash between the bytes and the row). Keys of an older format (not `blobKeyFor`'s) are
 * left alone. Answers how many were deleted.
 */
export async function sweepOrphanBlobs(server: RecordAccess, blobs: BlobStore, after: Date, before: Date): Promise<number> {
  if (!blobs.list) return 0;
  let count = 0;
  for await (const { key, storedAt } of blobs.list()) {
    if (storedAt >= before || storedAt < after) continue;
    const id = UPLOAD_KEY.exec(key)?.[1];
    if (!id) continue;
    const row = await server.find<AttachmentData>(AI_ATTACHMENTS, id);
    if (row?.data.blobKey === key) continue;
    if (await blobs.delete(key)) count++;
  }
  return count;
}
