import type { ChatService } from '@chatwire/core';
import type { Reply } from '../handler-dispatch.js';
import { jsonReply } from '../json-reply.js';
import type { RouteParams } from './route-params.js';
import { searchChats } from './search-chats.js';

export const SEARCH_ROUTE = 'search';

/**
 * `GET /search?q=&limit=&cursor=&chatId=`: 200 `{ results, nextCursor }`. A store whose driver has no
 * full-text search (`capabilities.fullText`) answers 501 `NOT_IMPLEMENTED`.
 */
export function searchRoutes(service: ChatService): Record<string, Record<string, (params: RouteParams) => Promise<Reply>>> {
  return {
    [SEARCH_ROUTE]: {
      GET: async ({ url, caller }) => {
        if (service.store.capabilities.fullText !== true) {
          return jsonReply(501, {
            error: { code: 'NOT_IMPLEMENTED', message: `Search needs a store driver with full-text search; "${service.store.driver.name}" has none` },
          });
        }
        return jsonReply(200, await searchChats(service.store, caller, url.searchParams));
      },
    },
  };
}
