import type { ChatService } from '@chatwire/core';
import { ChatwireError } from '@chatwire/storage';
import { errorReply } from '../error-response.js';
import type { Reply, RequestView } from '../handler-dispatch.js';
import { jsonReply, type JsonReply } from '../json-reply.js';
import { decodeSegment, type RouteMatch, type RouteParams } from './route-params.js';

export const SHARED_ROUTE = 'shared/:token';

export interface ShareRouteOptions {
  basePath: string;
  /** The link handed out for a token (default: this handler's `GET /shared/:token` URL). */
  shareUrl?: ((token: string, requestUrl: URL) => string) | undefined;
  /** The client's address for the read limit (default: the socket's remote address, when the adapter knows it). */
  clientAddress?: ((request: RequestView) => string | undefined) | undefined;
  report: (error: unknown) => void;
}

/** Every answer of `GET /shared/:token`, errors included: never indexed, never cached. */
const SHARED_HEADERS = { 'x-robots-tag': 'noindex', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

/** When no address is known, all such readers share one budget. */
const UNKNOWN_CLIENT = 'unknown';

/**
 * The share routes, present only while the service has sharing on (otherwise their paths are unknown: 404):
 * `POST /chats/:id/shares` (201 `{ share, url }`), `DELETE /shares/:shareId` (200 `{ revoked: true }`), and
 * `GET /shared/:token`, answered without auth by `readShared`.
 */
export function shareRoutes(service: ChatService, body: (request: RequestView) => Promise<unknown>, options: ShareRouteOptions) {
  const shareUrl = options.shareUrl ?? ((token: string, url: URL) => new URL(`${options.basePath}/shared/${token}`, url).href);

  function match(rest: string): RouteMatch | null {
    if (!service.sharing) return null;
    let found = /^\/chats\/([^/]+)\/shares$/.exec(rest);
    if (found) return { route: 'chats/:id/shares', id: decodeSegment(found[1]!) };
    found = /^\/shares\/([^/]+)$/.exec(rest);
    if (found) return { route: 'shares/:id', id: decodeSegment(found[1]!) };
    // Anything under /shared/ is a token: every miss gets the same answer.
    found = /^\/shared\/(.+)$/.exec(rest);
    if (found) return { route: SHARED_ROUTE, id: decodeSegment(found[1]!) };
    return null;
  }

  const routes: Record<string, Record<string, (params: RouteParams) => Promise<Reply>>> = {
    'chats/:id/shares': {
      POST: async ({ request, url, caller, id }) => {
        const { share, token } = await service.createShare(caller, id!, await body(request));
        return jsonReply(201, { share, url: shareUrl(token, url) });
      },
    },
    'shares/:id': {
      DELETE: async ({ caller, id }) => {
        await service.revokeShare(caller, id!);
        return jsonReply(200, { revoked: true });
      },
    },
  };

  /** `GET /shared/:token` with no auth: the frozen copy, or the one 404; rate-limited per client address. */
  async function readShared(request: RequestView, token: string): Promise<JsonReply> {
    let reply: JsonReply;
    try {
      if (request.method !== 'GET') {
        throw new ChatwireError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on shared chats`, { details: { allow: 'GET' } });
      }
      const client = options.clientAddress ? options.clientAddress(request) : request.clientAddress;
      reply = jsonReply(200, await service.readShare(token, client || UNKNOWN_CLIENT));
    } catch (error) {
      reply = errorReply(error, options.report);
    }
    return { ...reply, headers: { ...reply.headers, ...SHARED_HEADERS } };
  }

  return { match, routes, readShared };
}
