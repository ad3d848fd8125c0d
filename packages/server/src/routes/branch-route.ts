import type { ChatService } from '@chatwire/core';
import type { Reply, RequestView } from '../handler-dispatch.js';
import { jsonReply } from '../json-reply.js';
import { decodeSegment, type RouteMatch, type RouteParams } from './route-params.js';

export const BRANCH_ROUTE = 'chats/:id/active';

const PATH = /^\/chats\/([^/]+)\/active$/;

/** `/chats/:id/active` under the base path, or null. */
export function matchBranchRoute(rest: string): RouteMatch | null {
  const found = PATH.exec(rest);
  return found ? { route: BRANCH_ROUTE, id: decodeSegment(found[1]!) } : null;
}

/**
 * `POST /chats/:id/active { messageId }` (tree history): the newest leaf under that message becomes the
 * chat's active leaf; 200 `{ chat, messages }` with the new active path. Another user's chat or a message
 * not in the chat: 404; a turn streaming: 409 `CHAT_BUSY`; linear history: 404.
 */
export function branchRoutes(
  service: ChatService,
  body: (request: RequestView) => Promise<unknown>,
): Record<string, Record<string, (params: RouteParams) => Promise<Reply>>> {
  return {
    [BRANCH_ROUTE]: {
      POST: async ({ request, caller, id }) => jsonReply(200, await service.switchBranch(caller, id!, await body(request))),
    },
  };
}
