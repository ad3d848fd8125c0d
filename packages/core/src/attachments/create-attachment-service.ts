import { randomBytes } from 'node:crypto';
import { ChatwireError, createMemoryBlobStore, type BlobStore, type Caller, type RecordAccess, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import {
  AI_ATTACHMENT_USAGE_SCHEMA,
  AI_ATTACHMENTS,
  AI_ATTACHMENTS_SCHEMA,
  type Attachment,
  type AttachmentData,
} from '../records/attachment-collection.js';
import { addUsage, readUsage } from './attachment-usage.js';
import { deleteAttachmentRow, sweepOrphanBlobs, sweepUnattached } from './sweep-attachments.js';
import { allowedMediaType, declaresOtherCharset, isTextType } from './attachment-media-types.js';
import { resolveAttachmentLimits, type AttachmentLimits } from './attachment-limits.js';
import { cleanFilename } from './clean-filename.js';
import { createContentUrlSigner } from './content-url-signer.js';
import { validateUpload } from './validate-upload.js';
import { inputsFor } from './model-inputs.js';
import type { ModelInput } from './attachment-media-types.js';

export interface AttachmentOptions extends Partial<AttachmentLimits> {
  /** Where the bytes go (default: this process's memory). */
  blobs?: BlobStore;
  /** HMAC key of content URLs (default random per process: set one when several processes serve the same store). */
  urlSecret?: string;
  /** Path the content URLs start with (the handler's base path; default `/api/ai`). */
  basePath?: string;
  /** What each model reads, by model id (`CHATWIRE_MODEL_INPUTS`); others get their provider's defaults. */
  modelInputs?: Record<string, readonly ModelInput[]>;
}

export interface UploadInput {
  body: AsyncIterable<Uint8Array> | null;
  /** The declared `Content-Type`. */
  contentType: string | null;
  filename: string | null;
  /** The declared length, when known: too large is refused before reading. */
  contentLength?: number | null;
}

export type AttachmentRow = RecordEnvelope<AttachmentData>;

export interface AttachmentService {
  readonly limits: AttachmentLimits;
  readonly blobs: BlobStore;
  upload(caller: Caller, input: UploadInput): Promise<Attachment>;
  get(caller: Caller, attachmentId: string): Promise<Attachment>;
  /** The bytes for the caller, or (caller null) for a valid signature. */
  content(caller: Caller | null, attachmentId: string, signature?: { expires: string | null; sig: string | null }): Promise<{ row: AttachmentRow; bytes: Uint8Array }>;
  delete(caller: Caller, attachmentId: string): Promise<void>;
  /**
   * Deletes uploads no stored message uses that are older than `unattachedTtlMs`, and (stores with `list`)
   * bytes older than that without an attachment row; answers how many of each went.
   */
  sweep(now?: number): Promise<number>;
  /** The caller's own rows of these ids, in order (404 `ATTACHMENT_NOT_FOUND` for any other). */
  rowsFor(caller: Caller, ids: readonly string[]): Promise<AttachmentRow[]>;
  bytesOf(row: AttachmentRow): Promise<Uint8Array>;
  /** Deletes the bytes of rows already deleted (after the transaction that deleted them committed). */
  dropBlobs(rows: readonly AttachmentRow[]): Promise<void>;
  /** The signed content URL of an attachment. */
  urlFor(attachmentId: string): string;
  toAttachment(row: AttachmentRow): Attachment;
  /** What a model reads (`GET /models` `inputs`). */
  inputsFor(modelId: string, provider: string): ModelInput[];
}

const ID_PATTERN = /^att_[A-Za-z0-9_-]{1,64}$/;

function notFound(): ChatwireError {
  return new ChatwireError('ATTACHMENT_NOT_FOUND', 'Attachment not found');
}

export function createAttachmentService(
  store: RecordStore,
  options: AttachmentOptions = {},
  onError: (error: unknown) => void = () => undefined,
): AttachmentService {
  store.register(AI_ATTACHMENTS_SCHEMA);
  store.register(AI_ATTACHMENT_USAGE_SCHEMA);
  const limits = resolveAttachmentLimits(options);
  const blobs = options.blobs ?? createMemoryBlobStore();
  const signer = createContentUrlSigner({ secret: options.urlSecret, ttlMs: limits.urlTtlMs });
  const basePath = (options.basePath ?? '/api/ai').replace(/\/+$/, '');
  const server = () => store.asServer();
  let lastSweep = 0;

  const urlFor = (id: string) => {
    const { expires, sig } = signer.sign(id);
    return `${basePath}/attachments/${encodeURIComponent(id)}/content?expires=${expires}&sig=${sig}`;
  };
  const toAttachment = (row: AttachmentRow): Attachment => ({
    attachmentId: row.recordId,
    mediaType: row.data.mediaType,
    filename: row.data.filename,
    size: row.data.size,
    sha256: row.data.sha256,
    createdAt: row.createdAt,
    url: urlFor(row.recordId),
  });

  async function own(caller: Caller, id: string): Promise<AttachmentRow> {
    if (!ID_PATTERN.test(id)) throw notFound();
    const row = await server().find<AttachmentData>(AI_ATTACHMENTS, id);
    if (!row || row.data.userId !== caller.userId) throw notFound();
    return row;
  }

  function maybeSweep(): void {
    const now = Date.now();
    if (now - lastSweep < 60 * 60_000) return;
    lastSweep = now;
    sweep(now).catch(onError);
  }

  // Stores that can join record transactions are known after the first upload (null: not yet known).
  let joins: boolean | null = blobs.joinTransaction ? null : false;
  // Orphan bytes are looked for in the window since the last sweep (from 0 in a new process).
  let orphansChecked = new Date(0);

  async function sweep(now = Date.now()): Promise<number> {
    const before = new Date(now - limits.unattachedTtlMs);
    const count = await sweepUnattached(server(), blobs, before.toISOString(), onError);
    // A store that joins the rows' transactions never has bytes without a row: no listing needed.
    const orphans = joins === true ? 0 : await sweepOrphanBlobs(server(), blobs, orphansChecked, before);
    orphansChecked = before;
    return count + orphans;
  }

  return {
    limits,
    blobs,
    urlFor,
    toAttachment,
    sweep,
    inputsFor: (modelId, provider) => inputsFor(options.modelInputs, modelId, provider),
    async upload(caller, input) {
      const mediaType = allowedMediaType(input.contentType);
      if (!mediaType || (isTextType(mediaType) && declaresOtherCharset(input.contentType!))) {
        throw new ChatwireError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Content-Type ${JSON.stringify((input.contentType ?? '').slice(0, 100))} is not accepted: PNG, JPEG, WebP, GIF, PDF or UTF-8 text`,
        );
      }
      const fileTooLarge = () => new ChatwireError('ATTACHMENT_TOO_LARGE', `A file may have at most ${limits.maxFileBytes} bytes`);
      const declared = input.contentLength ?? null;
      if (declared !== null && declared > limits.maxFileBytes) throw fileTooLarge();
      if (!input.body) throw new ChatwireError('VALIDATION', 'The file is empty', { details: { field: 'body' } });
      const used = await readUsage(server(), caller.userId);
      const room = limits.quotaBytesPerUser - used;
      const overQuota = () => new ChatwireError('QUOTA_EXCEEDED', `Stored attachments may take at most ${limits.quotaBytesPerUser} bytes per user`);
      if (room <= 0 || (declared !== null && declared > room)) throw overQuota();
      const checked = await validateUpload(input.body, {
        mediaType,
        limit: Math.min(limits.maxFileBytes, room),
        tooLarge: room < limits.maxFileBytes ? overQuota : fileTooLarge,
      });
      // The blob key starts with the record id (the orphan sweep finds the row by it), then 24 more random bytes.
      const random = randomBytes(40);
      const recordId = `att_${random.subarray(0, 16).toString('base64url')}`;
      const blobKey = `${recordId}${random.subarray(16).toString('base64url')}`;
      const createRow = async (tx: RecordAccess) => {
        const { size, sha256 } = checked.result();
        // Under the usage row's lock: concurrent uploads of the user never both pass the quota.
        await addUsage(tx, caller.userId, size, limits.quotaBytesPerUser);
        const data: AttachmentData = { userId: caller.userId, mediaType, filename: cleanFilename(input.filename), size, sha256, blobKey };
        return tx.create<AttachmentData>(AI_ATTACHMENTS, data, { recordId });
      };
      let row: AttachmentRow | null = null;
      if (joins !== false) {
        // Bytes and row in one transaction: a cut upload or a failed row leaves neither.
        row = await server().transaction(async (tx) => {
          const joined = blobs.joinTransaction!(tx);
          if (!joined) return null;
          await joined.put(blobKey, checked.body);
          return createRow(tx);
        });
        joins = row !== null;
      }
      if (!row) {
        await blobs.put(blobKey, checked.body);
        try {
          row = await server().transaction(createRow);
        } catch (error) {
          await blobs.delete(blobKey).catch(onError);
          throw error;
        }
      }
      maybeSweep();
      return toAttachment(row);
    },
    async get(caller, id) {
      return toAttachment(await own(caller, id));
    },
    async content(caller, id, signature) {
      let row: AttachmentRow;
      if (caller) row = await own(caller, id);
      else {
        if (!ID_PATTERN.test(id) || !signer.verify(id, signature?.expires ?? null, signature?.sig ?? null)) throw notFound();
        const found = await server().find<AttachmentData>(AI_ATTACHMENTS, id);
        if (!found) throw notFound();
        row = found;
      }
      const bytes = await blobs.get(row.data.blobKey);
      if (!bytes) throw notFound();
      return { row, bytes };
    },
    async delete(caller, id) {
      const row = await own(caller, id);
      if (row.data.messageId) throw new ChatwireError('ATTACHMENT_IN_USE', 'A stored message uses this attachment: delete its chat instead');
      if (await deleteAttachmentRow(server(), blobs, row)) await blobs.delete(row.data.blobKey).catch(onError);
    },
    async rowsFor(caller, ids) {
      const rows: AttachmentRow[] = [];
      for (const id of ids) rows.push(await own(caller, id));
      return rows;
    },
    async bytesOf(row) {
      const bytes = await blobs.get(row.data.blobKey);
      if (!bytes) throw notFound();
      return bytes;
    },
    async dropBlobs(rows) {
      for (const row of rows) await blobs.delete(row.data.blobKey).catch(onError);
    },
  };
}
