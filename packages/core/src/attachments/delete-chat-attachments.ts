import type { RecordAccess } from '@chatwire/storage';
import { AI_ATTACHMENTS, type AttachmentData } from '../records/attachment-collection.js';
import type { AttachmentRow } from './create-attachment-service.js';

/** Deletes the attachment rows of a chat's messages (in the caller's transaction); answers them, for their bytes. */
export async function deleteChatAttachments(tx: RecordAccess, chatId: string): Promise<AttachmentRow[]> {
  const rows: AttachmentRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await tx.query<AttachmentData>(AI_ATTACHMENTS, { filter: { chatId }, limit: 200, ...(cursor ? { cursor } : {}) });
    rows.push(...page.records);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (rows.length > 0) await tx.deleteWhere(AI_ATTACHMENTS, { chatId });
  return rows;
}
