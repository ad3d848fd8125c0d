import {
  createChatBodySchema,
  listChatsQuerySchema,
  renameChatBodySchema,
  turnBodySchema,
  turnBodySchemas,
  usageQuerySchema,
} from './request-schemas.js';
import {
  chatListSchema,
  chatResponseSchema,
  chatSchema,
  chatWithMessagesSchema,
  deletedChatSchema,
  errorBodySchema,
  messageSchema,
  modelListSchema,
  modelSchema,
  stoppedSchema,
  usageRowSchema,
  usageSchema,
} from './response-schemas.js';
import { feedbackBodySchema } from '../../feedback/feedback-input.js';
import { createShareBodySchema } from '../../shares/share-input.js';

/**
 * The zod schemas of every request and response of the chat routes: the same ones that validate requests,
 * so an HTTP layer can describe the routes (`GET /openapi.json`) without a second description.
 */
export const API_SCHEMAS = {
  requests: {
    createChat: createChatBodySchema,
    renameChat: renameChatBodySchema,
    turn: turnBodySchema,
    /** The branches of `turn`, one per trigger. */
    turnByTrigger: turnBodySchemas,
    listChats: listChatsQuerySchema,
    usage: usageQuerySchema,
    feedback: feedbackBodySchema,
    createShare: createShareBodySchema,
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
  /** The parts that several responses share, by the name a document gives them. */
  shared: { Chat: chatSchema, Message: messageSchema, Model: modelSchema, UsageRow: usageRowSchema },
} as const;

export type ApiSchemas = typeof API_SCHEMAS;
