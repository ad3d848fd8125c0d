export { createChatHandler } from './create-chat-handler.js';
export type { ChatHandler, ChatHandlerOptions, HttpOptions } from './create-chat-handler.js';
export { fromEnv } from './from-env.js';
export type { CorsOptions } from './cors.js';
export { STATUS_BY_CODE } from './error-response.js';
export * from './auth/index.js';
export { ChatwireError, isChatwireError } from '@chatwire/storage';
