import { ChatwireError, type Caller } from '@chatwire/storage';
import type { FilePartData } from '../records/attachment-collection.js';
import { modelInputOf } from './attachment-media-types.js';
import type { AttachmentService } from './create-attachment-service.js';

/**
 * The attachments of a new message, checked before any model call: each the caller's own (else 404
 * `ATTACHMENT_NOT_FOUND`), not used by another stored message (409 `ATTACHMENT_IN_USE`), at most
 * `maxFilesPerMessage` of them (400), at most `maxTurnBytes` together (413 `ATTACHMENT_TOO_LARGE`), and
 * each readable by the chosen model (400 `ATTACHMENT_NOT_SUPPORTED`). Answers the parts the user row stores.
 */
export async function admitAttachments(
  attachments: AttachmentService,
  caller: Caller,
  ids: readonly string[],
  model: { modelId: string; provider: string },
): Promise<FilePartData[]> {
  const { limits } = attachments;
  if (ids.length > limits.maxFilesPerMessage) {
    throw new ChatwireError('VALIDATION', `'attachments' may have at most ${limits.maxFilesPerMessage} entries`, { details: { field: 'attachments' } });
  }
  if (new Set(ids).size !== ids.length) throw new ChatwireError('VALIDATION', "'attachments' must not repeat an id", { details: { field: 'attachments' } });
  const rows = await attachments.rowsFor(caller, ids);
  const total = rows.reduce((sum, row) => sum + row.data.size, 0);
  if (total > limits.maxTurnBytes) {
    throw new ChatwireError('ATTACHMENT_TOO_LARGE', `The attachments of one message may have at most ${limits.maxTurnBytes} bytes together`);
  }
  const inputs = attachments.inputsFor(model.modelId, model.provider);
  for (const row of rows) {
    if (row.data.messageId) throw new ChatwireError('ATTACHMENT_IN_USE', `Attachment '${row.recordId}' belongs to another message`);
    const input = modelInputOf(row.data.mediaType);
    if (!inputs.includes(input)) {
      throw new ChatwireError('ATTACHMENT_NOT_SUPPORTED', `Model '${model.modelId}' cannot read ${row.data.mediaType} ('${row.data.filename}'); it reads ${inputs.join(', ')}`, {
        details: { field: 'attachments', attachmentId: row.recordId },
      });
    }
  }
  return rows.map((row) => ({ type: 'file', attachmentId: row.recordId, mediaType: row.data.mediaType, filename: row.data.filename }));
}
