import type { ModelMessage } from 'ai';
import type { CompactionConfig, CompactionReport, CompactionStage } from './compaction-types.js';
import type { PromptSizer } from './message-size.js';
import { sanitizeToolPairs } from './sanitize-tool-pairs.js';

/**
 * The last step shared by both pipelines: flatten what the window kept, drop orphaned tool pieces, and
 * measure the result for the report.
 */
export function finishCompaction(
  kept: readonly { messages: readonly ModelMessage[] }[],
  done: { stages: CompactionStage[]; charsBefore: number; droppedEntries: number; truncatedToolResults: number },
  config: CompactionConfig,
  sizer: PromptSizer,
): { messages: ModelMessage[]; report: CompactionReport } {
  const sanitized = sanitizeToolPairs(kept.flatMap((unit) => unit.messages));
  const charsAfter = sizer.messages(sanitized.messages);
  return {
    messages: sanitized.messages,
    report: {
      ...done,
      charsAfter,
      withinBudget: charsAfter <= config.contextBudget,
      droppedOrphans: sanitized.dropped,
    },
  };
}
