import type { ChatService } from '@chatwire/core';
import type { Reply, RequestView } from '../handler-dispatch.js';
import { jsonReply } from '../json-reply.js';
import { decodeSegment, type RouteMatch, type RouteParams } from './route-params.js';

export const FEEDBACK_ROUTE = 'chats/:id/messages/:mid/feedback';

const PATH = /^\/chats\/([^/]+)\/messages\/([^/]+)\/feedback$/;

/** `/chats/:id/messages/:mid/feedback` under the base path, or null. */
export function matchFeedbackRoute(rest: string): RouteMatch | null {
  const found = PATH.exec(rest);
  return found ? { route: FEEDBACK_ROUTE, id: decodeSegment(found[1]!), subId: decodeSegment(found[2]!) } : null;
}

/**
 * `PUT` (200 `{ feedback }`) and `DELETE` (200 `{ deleted }`) of the caller's rating of an assistant message.
 * Another user's chat, a message not in the chat (or not stored yet): 404; a user message: 400.
 */
export function feedbackRoutes(
  service: ChatService,
  body: (request: RequestView) => Promise<unknown>,
): Record<string, Record<string, (params: RouteParams) => Promise<Reply>>> {
  return {
    [FEEDBACK_ROUTE]: {
      PUT: async ({ request, caller, id, subId }) =>
        jsonReply(200, { feedback: await service.setFeedback(caller, id!, subId!, await body(request)) }),
      DELETE: async ({ caller, id, subId }) => jsonReply(200, { deleted: await service.deleteFeedback(caller, id!, subId!) }),
    },
  };
}
