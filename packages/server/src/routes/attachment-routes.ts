import type { ChatService } from '@chatwire/core';

type AttachmentService = ChatService['attachments'];
import { ChatwireError, type Caller } from '@chatwire/storage';
import { bodyChunks } from '../attachments/body-chunks.js';
import { multipartBoundary, readMultipartFile } from '../attachments/read-multipart-file.js';
import type { Reply, RequestView } from '../handler-dispatch.js';
import { jsonReply } from '../json-reply.js';
import { decodeSegment, type RouteMatch, type RouteParams } from './route-params.js';

export const ATTACHMENTS_ROUTE = 'attachments';
export const ATTACHMENT_CONTENT_ROUTE = 'attachments/:id/content';

/** A content answer: the bytes as their sniffed type, never sniffed again by the browser, never a page that runs. */
function contentResponse(mediaType: string, filename: string, bytes: Uint8Array): Response {
  const text = mediaType.startsWith('text/');
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'content-type': text ? `${mediaType}; charset=utf-8` : mediaType,
      'content-length': String(bytes.byteLength),
      'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(filename)}`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=300',
      ...(text ? { 'content-security-policy': "default-src 'none'; sandbox" } : {}),
    },
  });
}

/**
 * `POST /attachments` (the bytes with their `Content-Type` and `?filename=`, or `multipart/form-data` with
 * one `file` part), `GET /attachments/:id`, `GET /attachments/:id/content` (bearer, or the signed URL:
 * `readSigned`) and `DELETE /attachments/:id`. Uploads are streamed into the blob store as they arrive.
 */
export function attachmentRoutes(attachments: () => AttachmentService, options: { idleMs: number }) {
  function match(rest: string): RouteMatch | null {
    if (rest === '/attachments') return { route: ATTACHMENTS_ROUTE };
    const found = /^\/attachments\/([^/]+)(\/content)?$/.exec(rest);
    if (!found) return null;
    return { route: found[2] ? ATTACHMENT_CONTENT_ROUTE : 'attachments/:id', id: decodeSegment(found[1]!) };
  }

  async function upload(request: RequestView, url: URL, caller: Caller): Promise<Reply> {
    const declared = request.headers.get('content-type');
    const length = request.headers.get('content-length');
    const boundary = multipartBoundary(declared);
    const service = attachments();
    // The adapter's own chunks when it has them (`request.body` is then never read: reading it starts its stream).
    const chunks = request.bodyChunks ? request.bodyChunks(options.idleMs) : request.body ? bodyChunks(request.body, options.idleMs) : null;
    if (!chunks) throw new ChatwireError('VALIDATION', 'The file is empty', { details: { field: 'body' } });
    if (boundary === null) {
      const attachment = await service.upload(caller, {
        body: chunks,
        contentType: declared,
        filename: url.searchParams.get('filename'),
        contentLength: length !== null && /^\d+$/.test(length) ? Number(length) : null,
      });
      return jsonReply(201, { attachment });
    }
    // The multipart envelope adds a few hundred bytes: its length is checked against the file limit plus some room.
    if (length !== null && /^\d+$/.test(length) && Number(length) > service.limits.maxFileBytes + 64 * 1024) {
      await chunks.return(undefined);
      throw new ChatwireError('ATTACHMENT_TOO_LARGE', `A file may have at most ${service.limits.maxFileBytes} bytes`);
    }
    const file = await readMultipartFile(chunks, boundary);
    const attachment = await service.upload(caller, { body: file.body, contentType: file.contentType, filename: file.filename });
    return jsonReply(201, { attachment });
  }

  const routes: Record<string, Record<string, (params: RouteParams) => Promise<Reply>>> = {
    [ATTACHMENTS_ROUTE]: {
      POST: ({ request, url, caller }) => upload(request, url, caller),
    },
    'attachments/:id': {
      GET: async ({ caller, id }) => jsonReply(200, { attachment: await attachments().get(caller, id!) }),
      DELETE: async ({ caller, id }) => {
        await attachments().delete(caller, id!);
        return jsonReply(200, { deleted: true });
      },
    },
    [ATTACHMENT_CONTENT_ROUTE]: {
      GET: async ({ caller, id }) => {
        const { row, bytes } = await attachments().content(caller, id!);
        return contentResponse(row.data.mediaType, row.data.filename, bytes);
      },
    },
  };

  /** `GET /attachments/:id/content?expires=&sig=` without a bearer: the signature is the key. */
  async function readSigned(url: URL, id: string): Promise<Reply> {
    const signature = { expires: url.searchParams.get('expires'), sig: url.searchParams.get('sig') };
    const { row, bytes } = await attachments().content(null, id, signature);
    return contentResponse(row.data.mediaType, row.data.filename, bytes);
  }

  return { match, routes, readSigned };
}
