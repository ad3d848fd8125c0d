import { createHash } from 'node:crypto';
import { ChatwireError, type RecordAccess } from '@chatwire/storage';
import {
  AI_ATTACHMENT_USAGE,
  AI_ATTACHMENTS,
  type AttachmentData,
  type AttachmentUsageData,
} from '../records/attachment-collection.js';

/** The usage row's id of a user (user ids need not be valid record ids). */
export function usageId(userId: string): string {
  return `u_${createHash('sha256').update(userId).digest('base64url')}`;
}

async function scanStoredBytes(server: RecordAccess, userId: string): Promise<number> {
  let total = 0;
  let cursor: string | undefined;
  do {
    const page = await server.query<AttachmentData>(AI_ATTACHMENTS, { filter: { userId }, limit: 200, ...(cursor ? { cursor } : {}) });
    for (const row of page.records) total += row.data.size;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return total;
}

/**
 * The user's stored bytes: one row read. The first time (no row yet) the row is made from the user's
 * attachment rows, so rows stored before usage rows existed still count; a concurrent first make that
 * lost the race is ignored (the row exists either way).
 */
export async function readUsage(server: RecordAccess, userId: string): Promise<number> {
  const id = usageId(userId);
  const row = await server.find<AttachmentUsageData>(AI_ATTACHMENT_USAGE, id);
  if (row) return row.data.bytes;
  const bytes = await scanStoredBytes(server, userId);
  try {
    return (await server.create<AttachmentUsageData>(AI_ATTACHMENT_USAGE, { userId, bytes }, { recordId: id })).data.bytes;
  } catch (error) {
    if (!ChatwireError.is(error, 'CONFLICT')) throw error;
    return (await server.get<AttachmentUsageData>(AI_ATTACHMENT_USAGE, id)).data.bytes;
  }
}

/**
 * In the transaction `tx` that creates or deletes rows of the user: adds `delta` bytes to the usage row,
 * locked first so concurrent changes queue. With `quota`, a total above it is `QUOTA_EXCEEDED` (the
 * transaction rolls back). A user without a usage row (nothing uploaded since) is left alone.
 */
export async function addUsage(tx: RecordAccess, userId: string, delta: number, quota?: number): Promise<void> {
  const id = usageId(userId);
  let locked;
  try {
    locked = await tx.update<AttachmentUsageData>(AI_ATTACHMENT_USAGE, id, {}); // the lock; answers the latest row
  } catch (error) {
    if (ChatwireError.is(error, 'NOT_FOUND') && quota === undefined) return;
    throw error;
  }
  const bytes = Math.max(0, locked.data.bytes + delta);
  if (quota !== undefined && delta > 0 && bytes > quota) {
    throw new ChatwireError('QUOTA_EXCEEDED', `Stored attachments may take at most ${quota} bytes per user`);
  }
  await tx.update(AI_ATTACHMENT_USAGE, id, { bytes });
}
