import type { ChatService } from '@chatwire/core';
import type { Reply, RequestView } from '../handler-dispatch.js';
import { jsonReply } from '../json-reply.js';
import { decodeSegment, type RouteMatch, type RouteParams } from './route-params.js';

/** What a chat route reads: the matched request, and the caller's bearer token (passed on to the model call). */
export type ChatRouteContext = RouteParams & { token: string };

export type ChatRouteHandler = (context: ChatRouteContext) => Promise<Reply>;

export interface ChatRouteDeps {
  service: ChatService;
  /** The request's JSON body, size- and time-limited. */
  body(request: RequestView): Promise<unknown>;
  /** A running turn's SSE answer (heartbeat, `X-Asst-Id`). */
  streamResponse(turn: { assistantMessageId: string; stream: ReadableStream<Uint8Array> }): Response;
  /** `GET /openapi.json`. */
  openApiReply(): Reply;
}

/** The paths without an id, under the base path. */
const FIXED = new Set(['chats', 'chat', 'models', 'usage', 'openapi.json']);

/** `/chats`, `/chat`, `/models`, `/usage`, `/openapi.json`, `/chats/:id`, `/chats/:id/stop|stream`, or null. */
export function matchChatRoute(rest: string): RouteMatch | null {
  const name = rest.slice(1);
  if (FIXED.has(name)) return { route: name };
  const found = /^\/chats\/([^/]+)(\/stop|\/stream)?$/.exec(rest);
  return found ? { route: `chats/:id${found[2] ?? ''}`, id: decodeSegment(found[1]!) } : null;
}

/** The chat routes of the HTTP contract (DESIGN.md): chats, one turn, stop, resume, models, usage, the OpenAPI document. */
export function chatRoutes({ service, body, streamResponse, openApiReply }: ChatRouteDeps): Record<string, Record<string, ChatRouteHandler>> {
  return {
    chats: {
      GET: async ({ url, caller }) => {
        const params = url.searchParams;
        return jsonReply(200, await service.listChats(caller, { limit: params.get('limit'), cursor: params.get('cursor') }));
      },
      POST: async ({ request, caller }) => jsonReply(201, { chat: await service.createChat(caller, await body(request)) }),
    },
    'chats/:id': {
      GET: async ({ caller, id }) => jsonReply(200, await service.getChat(caller, id!)),
      PATCH: async ({ request, caller, id }) => jsonReply(200, { chat: await service.renameChat(caller, id!, await body(request)) }),
      DELETE: async ({ caller, id }) => jsonReply(200, { deleted: await service.deleteChat(caller, id!) }),
    },
    'chats/:id/stop': {
      POST: async ({ caller, id }) => jsonReply(200, await service.stopTurn(caller, id!)),
    },
    'chats/:id/stream': {
      GET: async ({ request, caller, id }) => {
        const turn = await service.resumeTurn(caller, id!, { signal: request.signal });
        return turn ? streamResponse(turn) : new Response(null, { status: 204 });
      },
    },
    models: {
      GET: async ({ caller }) => jsonReply(200, { models: await service.listModels(caller) }),
    },
    usage: {
      GET: async ({ url, caller }) => {
        const params = url.searchParams;
        return jsonReply(200, await service.usage(caller, { from: params.get('from'), to: params.get('to') }));
      },
    },
    'openapi.json': {
      GET: async () => openApiReply(),
    },
    chat: {
      POST: async ({ request, caller, token }) =>
        streamResponse(await service.streamTurn(caller, await body(request), { signal: request.signal, authToken: token })),
    },
  };
}
