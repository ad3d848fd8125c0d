import { ChatwireClientError } from './chatwire-client-error.js';
import { readJson, type Requester } from './create-requester.js';

/** An uploaded file (`POST /attachments`). `url` is signed: it works without a token (`<img src>`) until it expires. */
export interface AttachmentRecord {
  attachmentId: string;
  mediaType: string;
  filename: string;
  size: number;
  sha256: string;
  createdAt: string;
  /** Path and query on the server (resolve it against the routes' origin: `contentUrl`). */
  url: string;
}

type Options = { signal?: AbortSignal | undefined };
const signalOf = ({ signal }: Options) => (signal ? { signal } : {});

/** The bytes of a `data:` URL (what `useChat` makes of a FileList); anything else is null. */
export function bytesOfDataUrl(url: string): { bytes: Uint8Array; mediaType: string } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s.exec(url);
  if (!match) return null;
  const data = match[4]!;
  const mediaType = match[1] || 'text/plain';
  if (match[3]) {
    const binary = atob(data);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return { bytes, mediaType };
  }
  return { bytes: new TextEncoder().encode(decodeURIComponent(data)), mediaType };
}

/** The route client's attachment methods over one requester. */
export function attachmentRoutes(request: Requester, baseUrl: string) {
  return {
    /** `POST /attachments`: the bytes with their media type (the server sniffs them: they must agree). */
    async uploadAttachment(file: Blob | Uint8Array, input: { mediaType?: string; filename?: string } & Options = {}): Promise<AttachmentRecord> {
      const mediaType = input.mediaType ?? (file instanceof Blob ? file.type : '') ?? '';
      if (!mediaType) throw new ChatwireClientError('VALIDATION', 'uploadAttachment: the file has no media type', { status: 0 });
      const filename = input.filename ?? (typeof File !== 'undefined' && file instanceof File ? file.name : undefined);
      const query = filename ? `?filename=${encodeURIComponent(filename)}` : '';
      const res = await request('POST', `/attachments${query}`, { raw: file, headers: { 'content-type': mediaType }, ...signalOf(input) });
      return (await readJson<{ attachment: AttachmentRecord }>(res, 'POST /attachments')).attachment;
    },
    async getAttachment(attachmentId: string, options: Options = {}): Promise<AttachmentRecord> {
      const res = await request('GET', `/attachments/${encodeURIComponent(attachmentId)}`, signalOf(options));
      return (await readJson<{ attachment: AttachmentRecord }>(res, 'GET /attachments/:id')).attachment;
    },
    /** 409 `ATTACHMENT_IN_USE` when a stored message uses it. */
    async deleteAttachment(attachmentId: string, options: Options = {}): Promise<{ deleted: true }> {
      const res = await request('DELETE', `/attachments/${encodeURIComponent(attachmentId)}`, signalOf(options));
      return readJson<{ deleted: true }>(res, 'DELETE /attachments/:id');
    },
    /** A signed `url` (path and query) as an absolute URL on the routes' origin. */
    contentUrl(url: string): string {
      return new URL(url, baseUrl).href;
    },
  };
}

export type AttachmentRoutes = ReturnType<typeof attachmentRoutes>;
