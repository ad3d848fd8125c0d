import { ChatwireClientError } from './chatwire-client-error.js';
import type { Requester } from './create-requester.js';
import { attachmentRoutes, bytesOfDataUrl } from './attachment-routes.js';

interface FilePartLike {
  type: string;
  url?: unknown;
  mediaType?: unknown;
  filename?: unknown;
  attachmentId?: unknown;
}

/** Uploads already made, per file part: a retried send never uploads the same part twice. */
const uploaded = new WeakMap<object, Promise<string>>();

/**
 * The attachment ids of a `useChat` message's file parts, in order, uploading each one given as a `data:`
 * URL (what `sendMessage({ files })` makes of a FileList). A part that came from the server (it carries its
 * `attachmentId`) is not uploaded again. Any other URL is refused: the server never fetches URLs.
 */
export async function uploadFileParts(request: Requester, parts: readonly FilePartLike[], signal?: AbortSignal): Promise<string[]> {
  const routes = attachmentRoutes(request, 'http://localhost/');
  const ids: string[] = [];
  for (const part of parts) {
    if (part.type !== 'file') continue;
    if (typeof part.attachmentId === 'string') {
      ids.push(part.attachmentId);
      continue;
    }
    let pending = uploaded.get(part);
    if (!pending) {
      const data = typeof part.url === 'string' ? bytesOfDataUrl(part.url) : null;
      if (!data) {
        throw new ChatwireClientError('VALIDATION', 'chatwire transport: a file part must be a data: URL (from a FileList) or an uploaded attachment', { status: 0 });
      }
      const mediaType = typeof part.mediaType === 'string' && part.mediaType ? part.mediaType : data.mediaType;
      pending = routes
        .uploadAttachment(data.bytes, { mediaType, ...(typeof part.filename === 'string' ? { filename: part.filename } : {}), signal })
        .then((attachment) => attachment.attachmentId);
      uploaded.set(part, pending);
      pending.catch(() => uploaded.delete(part));
    }
    ids.push(await pending);
  }
  return ids;
}
