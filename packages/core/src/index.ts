export { ChatwireError, isChatwireError } from '@chatwire/storage';
export type { ChatwireErrorCode } from '@chatwire/storage';

// chat service (programmatic API) and the chat collections
export { createChatService } from './chat/chat-service.js';
export type { ChatService, ChatServiceOptions } from './chat/chat-service.js';
export {
  AI_CHATS,
  AI_MESSAGES,
  AI_TURNS,
  AI_CHATS_SCHEMA,
  AI_MESSAGES_SCHEMA,
  AI_TURNS_SCHEMA,
  CHAT_COLLECTIONS,
} from './chat/chat-collections.js';
export type { Chat, ChatData, MessageData } from './chat/chat-collections.js';
export type { TurnInput } from './chat/chat-inputs.js';

// the turn
export { UI_STREAM_HEADERS, encodeSseChunk, SSE_DONE } from './turn/sse-encoder.js';
export type { StartedTurn, TurnOptions, ErrorContext, ErrorReporter, ErrorStage } from './turn/turn-types.js';

// models, providers, demo model
export * from './models/index.js';
export * from './demo/index.js';

// tools
export * from './tools/index.js';
export type { ToolContext, ChatwireTool, ToolCatalog } from './tools/tool-types.js';

// compaction
export * from './compaction/index.js';
export type {
  CompactionConfig,
  HistoryEntry,
  ConversationSummary,
  Summarizer,
  CompactionStage,
  CompactionReport,
  CompactionOutcome,
} from './compaction/compaction-types.js';
export type { ProviderName, ProviderEnv } from './models/model-types.js';
