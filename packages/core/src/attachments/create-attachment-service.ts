import { randomBytes } from 'node:crypto';
import { ChatwireError, createMemoryBlobStore, type BlobStore, type Caller, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import { AI_ATTACHMENTS, AI_ATTACHMENTS_SCHEMA, type Attachment, type AttachmentData } from '../records/attachment-collection.js';
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
  /** Deletes uploads no stored message uses that are older than `unattachedTtlMs`; answers how many. */
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

  async function storedBytes(userId: string): Promise<number> {
    let total = 0;
    let cursor: string | undefined;
    do {
      const page = await server().query<AttachmentData>(AI_ATTACHMENTS, { filter: { userId }, limit: 200, ...(cursor ? { cursor } : {}) });
      for (const row of page.records) total += row.data.size;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return total;
  }

  function maybeSweep(): void {
    const now = Date.now();
    if (now - lastSweep < 60 * 60_000) return;
    lastSweep = now;
    sweep(now).catch(onError);
  }

  async function sweep(now = Date.now()): Promise<number> {
    const before = new Date(now - limits.unattachedTtlMs).toISOString();
    let count = 0;
    for (;;) {
      const page = await server().query<AttachmentData>(AI_ATTACHMENTS, { filter: { messageId: { exists: false } }, limit: 200 });
      const old = page.records.filter((row) => row.createdAt < before);
      for (const row of old) {
        await server().delete(AI_ATTACHMENTS, row.recordId);
        await blobs.delete(row.data.blobKey).catch(onError);
        count++;
      }
      if (!page.nextCursor || old.length === 0) return count;
    }
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
      const used = await storedBytes(caller.userId);
      const room = limits.quotaBytesPerUser - used;
      const overQuota = () => new ChatwireError('QUOTA_EXCEEDED', `Stored attachments may take at most ${limits.quotaBytesPerUser} bytes per user`);
      if (room <= 0 || (declared !== null && declared > room)) throw overQuota();
      const checked = await validateUpload(input.body, {
        mediaType,
        limit: Math.min(limits.maxFileBytes, room),
        tooLarge: room < limits.maxFileBytes ? overQuota : fileTooLarge,
      });
      const blobKey = randomBytes(24).toString('base64url');
      await blobs.put(blobKey, checked.body);
      const { size, sha256 } = checked.result();
      const data: AttachmentData = { userId: caller.userId, mediaType, filename: cleanFilename(input.filename), size, sha256, blobKey };
      let row: AttachmentRow;
      try {
        row = await server().create<AttachmentData>(AI_ATTACHMENTS, data, { recordId: `att_${randomBytes(16).toString('base64url')}` });
      } catch (error) {
        await blobs.delete(blobKey).catch(onError);
        throw error;
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
      await server().delete(AI_ATTACHMENTS, id);
      await blobs.delete(row.data.blobKey).catch(onError);
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
