export { DEFAULT_COMPACTION_CONFIG, createCompactionConfig, validateCompactionConfig } from './compaction-config.js';
export { compactHistory, type CompactHistoryOptions } from './compact-history.js';
export { compactStepMessages } from './compact-step-messages.js';
export {
  createModelSummarizer,
  SUMMARIZER_SYSTEM_PROMPT,
  type ModelSummarizerOptions,
} from './create-model-summarizer.js';
export { measureMessages } from './message-size.js';
export { createSummaryMessage, isSummaryMessage, SUMMARY_MESSAGE_PREFIX } from './summary-message.js';
export { truncationMarker } from './truncate-tool-results.js';
export type {
  CompactionConfig,
  CompactionOutcome,
  CompactionReport,
  CompactionStage,
  ConversationSummary,
  HistoryEntry,
  Summarizer,
} from './compaction-types.js';
