export { ChatwireError, isChatwireError } from '@chatwire/storage';
export type { ChatwireErrorCode } from '@chatwire/storage';
export type { ToolContext, ChatwireTool, ToolCatalog } from './tools/tool-types.js';
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
