import {
  createChatBodySchema,
  listChatsQuerySchema,
  renameChatBodySchema,
  turnBodySchema,
  usageQuerySchema,
} from './request-schemas.js';
import {
  chatListSchema,
  chatResponseSchema,
  chatWithMessagesSchema,
  deletedChatSchema,
  errorBodySchema,
  modelListSchema,
  stoppedSchema,
  usageSchema,
} from './response-schemas.js';

/**
 * The zod schemas of every request and response of the chat routes: the same ones that validate requests,
 * so an HTTP layer can describe the routes (`GET /openapi.json`) without a second description.
 */
export const API_SCHEMAS = {
  requests: {
    createChat: createChatBodySchema,
    renameChat: renameChatBodySchema,
    turn: turnBodySchema,
    listChats: listChatsQuerySchema,
    usage: usageQuerySchema,
  },
  responses: {
    chat: chatResponseSchema,
    chatList: chatListSchema,
    chatWithMessages: chatWithMessagesSchema,
    deleted: deletedChatSchema,
    stopped: stoppedSchema,
    models: modelListSchema,
    usage: usageSchema,
    error: errorBodySchema,
  },
} as const;

export type ApiSchemas = typeof API_SCHEMAS;
