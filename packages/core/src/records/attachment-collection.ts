import type { CollectionDefinition } from '@chatwire/storage';

/** Uploaded files: what they are and who owns them. Their bytes live in a `BlobStore` under `blobKey`. */
export const AI_ATTACHMENTS = 'ai-attachments';

/**
 * One row per upload. `messageId` is set in the transaction that stores the user message using it (its
 * recordId in `ai-messages`); until then the upload is unattached and swept after a day. Written only by
 * the attachment routes and the turn that uses them.
 */
export const AI_ATTACHMENTS_SCHEMA: CollectionDefinition = {
  name: AI_ATTACHMENTS,
  description: 'Uploaded files of chat messages (bytes in the blob store).',
  hidden: true,
  rules: { read: 'own', create: false, update: false, delete: false },
  columns: [
    { name: 'userId', type: 'string', required: true },
    { name: 'mediaType', type: 'string', required: true },
    { name: 'filename', type: 'string', required: true, description: 'Display name only (control characters stripped, at most 255 bytes).' },
    { name: 'size', type: 'number', required: true },
    { name: 'sha256', type: 'string', required: true },
    { name: 'blobKey', type: 'string', required: true, description: 'Random server-made key of the bytes in the blob store.' },
    { name: 'chatId', type: 'string', description: 'The chat of the message using it.' },
    { name: 'messageId', type: 'string', description: 'The ai-messages recordId of the user message using it; absent: unattached.' },
  ],
};

export interface AttachmentData extends Record<string, unknown> {
  userId: string;
  mediaType: string;
  filename: string;
  size: number;
  sha256: string;
  blobKey: string;
  chatId?: string | null;
  messageId?: string | null;
}

/** The attachment object of the HTTP contract. */
export interface Attachment {
  attachmentId: string;
  mediaType: string;
  filename: string;
  size: number;
  sha256: string;
  createdAt: string;
  /** A signed content URL (path and query, relative to the handler's base path) that works without a header until it expires. */
  url: string;
}

/** The part a user row stores for each of its attachments: ids only, never bytes or URLs. */
export interface FilePartData {
  type: 'file';
  attachmentId: string;
  mediaType: string;
  filename: string;
}

/** Stored attachment bytes per user, kept with the attachment rows (the quota check reads one row). */
export const AI_ATTACHMENT_USAGE = 'ai-attachment-usage';

/**
 * One row per user who uploaded, id `u_<sha256(userId)>`. `bytes` is changed only in the transaction that
 * creates or deletes attachment rows, after locking the row (an empty update), so concurrent uploads of one
 * user never both pass the quota.
 */
export const AI_ATTACHMENT_USAGE_SCHEMA: CollectionDefinition = {
  name: AI_ATTACHMENT_USAGE,
  description: 'Stored attachment bytes per user (the upload quota).',
  hidden: true,
  rules: { read: false, create: false, update: false, delete: false },
  columns: [
    { name: 'userId', type: 'string', required: true },
    { name: 'bytes', type: 'number', required: true },
  ],
};

export interface AttachmentUsageData extends Record<string, unknown> {
  userId: string;
  bytes: number;
}
