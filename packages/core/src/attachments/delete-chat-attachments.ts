import type { BlobStore, RecordAccess } from '@chatwire/storage';
import { AI_ATTACHMENTS, type AttachmentData } from '../records/attachment-collection.js';
import type { AttachmentRow } from './create-attachment-service.js';
import { addUsage } from './attachment-usage.js';

/**
 * In the caller's transaction: deletes the attachment rows of a chat's messages and takes their bytes off
 * their owners' usage. With a blob store that joins the transaction, their bytes go in it too and nothing
 * is answered; otherwise the rows are answered so that their bytes are deleted after the commit
 * (`AttachmentService.dropBlobs`).
 */
export async function deleteChatAttachments(tx: RecordAccess, chatId: string, blobs?: BlobStore): Promise<AttachmentRow[]> {
  const rows: AttachmentRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await tx.query<AttachmentData>(AI_ATTACHMENTS, { filter: { chatId }, limit: 200, ...(cursor ? { cursor } : {}) });
    rows.push(...page.records);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (rows.length === 0) return rows;
  await tx.deleteWhere(AI_ATTACHMENTS, { chatId });
  const perUser = new Map<string, number>();
  for (const row of rows) perUser.set(row.data.userId, (perUser.get(row.data.userId) ?? 0) + row.data.size);
  for (const [userId, bytes] of perUser) await addUsage(tx, userId, -bytes);
  const joined = blobs?.joinTransaction?.(tx);
  if (!joined) return rows;
  for (const row of rows) await joined.delete(row.data.blobKey);
  return [];
}
