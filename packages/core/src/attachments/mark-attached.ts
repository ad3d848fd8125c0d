import { ChatwireError, type RecordAccess } from '@chatwire/storage';
import { AI_ATTACHMENTS, type AttachmentData, type FilePartData } from '../records/attachment-collection.js';

/**
 * In the transaction that stores a user message: its new attachments now belong to it (so they are not
 * swept, cannot be deleted alone, and go with the chat). One another message took meanwhile fails the save.
 */
export async function markAttached(tx: RecordAccess, files: readonly FilePartData[], chatId: string, messageRecordId: string): Promise<void> {
  for (const file of files) {
    const row = await tx.find<AttachmentData>(AI_ATTACHMENTS, file.attachmentId);
    if (!row) throw new ChatwireError('ATTACHMENT_NOT_FOUND', 'Attachment not found');
    if (row.data.messageId === messageRecordId) continue;
    if (row.data.messageId) throw new ChatwireError('ATTACHMENT_IN_USE', `Attachment '${file.attachmentId}' belongs to another message`);
    await tx.update(AI_ATTACHMENTS, file.attachmentId, { chatId, messageId: messageRecordId });
  }
}
