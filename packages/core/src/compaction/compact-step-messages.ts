import type { ModelMessage } from 'ai';
import { validateCompactionConfig } from './compaction-config.js';
import type { CompactionConfig, CompactionReport, CompactionStage } from './compaction-types.js';
import { createPromptSizer, type PromptSizer } from './message-size.js';
import { finishCompaction } from './finish-compaction.js';
import { applySlidingWindow, protectedStart, type WindowUnit } from './sliding-window.js';
import { isSummaryMessage } from './summary-message.js';
import { truncateToolResults } from './truncate-tool-results.js';

/**
 * The in-loop version for `prepareStep`: `messages` is the full prompt of the next step (system prompt excluded),
 * including the turn's own assistant and tool messages. Applies truncation and the sliding window only (never a
 * summarizer). Units are atomic: a user message, or an assistant message with the tool messages that follow it.
 * The newest user message and everything after it (the turn's steps) are always kept; a leading summary message
 * (from `compactHistory`) is dropped only after all other droppable units. Synchronous and deterministic.
 */
export function compactStepMessages(
  messages: ModelMessage[],
  config: CompactionConfig,
): { messages: ModelMessage[]; report: CompactionReport } {
  validateCompactionConfig(config);
  const sizer = createPromptSizer();
  const stages: CompactionStage[] = [];
  const charsBefore = sizer.messages(messages);

  const truncation = truncateToolResults(messages, config, sizer);
  if (truncation.truncated > 0) stages.push('truncate');

  const units = groupIntoUnits(truncation.messages, sizer);
  const window = applySlidingWindow(units, {
    contextBudget: config.contextBudget,
    minKept: config.minKept,
    protectedFrom: protectedStart(units),
    summaryFirst: isSummaryMessage(truncation.messages[0]),
  });
  if (window.dropped > 0) stages.push('window');

  return finishCompaction(
    window.kept,
    { stages, charsBefore, droppedEntries: window.dropped, truncatedToolResults: truncation.truncated },
    config,
    sizer,
  );
}

/** An assistant message owns the tool messages right after it; every other message is a unit of its own. */
function groupIntoUnits(messages: readonly ModelMessage[], sizer: PromptSizer): WindowUnit[] {
  const units: { messages: ModelMessage[]; size: number }[] = [];
  let owner: { messages: ModelMessage[]; size: number } | undefined;
  for (const msg of messages) {
    if (msg.role === 'tool' && owner !== undefined) {
      owner.messages.push(msg);
      owner.size += sizer.message(msg);
      continue;
    }
    const unit = { messages: [msg], size: sizer.message(msg) };
    units.push(unit);
    owner = msg.role === 'assistant' || msg.role === 'tool' ? unit : undefined;
  }
  return units;
}
