import type { ModelMessage } from 'ai';
import { validateCompactionConfig } from './compaction-config.js';
import type {
  CompactionConfig,
  CompactionOutcome,
  CompactionStage,
  ConversationSummary,
  HistoryEntry,
  Summarizer,
} from './compaction-types.js';
import { createPromptSizer, type PromptSizer } from './message-size.js';
import { runSummarizer } from './run-summarizer.js';
import { finishCompaction } from './finish-compaction.js';
import { applySlidingWindow, protectedStart, type WindowUnit } from './sliding-window.js';
import { createSummaryMessage } from './summary-message.js';
import { truncateToolResults } from './truncate-tool-results.js';

export interface CompactHistoryOptions {
  config: CompactionConfig;
  /** The summary stored with the chat's latest turn; ignored when its `throughId` is not among the entries. */
  cachedSummary?: ConversationSummary | null;
  /** null/undefined: summarizing disabled (stage 3 is skipped). */
  summarize?: Summarizer | null;
  abortSignal?: AbortSignal;
}

interface EntryUnit extends WindowUnit {
  id: string;
  messages: ModelMessage[];
}

/**
 * Prepares the prompt messages at turn start (spec 8.2): (1) truncate tool results, (2) apply the cached summary,
 * (3) if over `contextBudget`, summarize the older half of the entries into a new summary, (4) if still over,
 * drop the oldest entries down to `minKept` messages. Entries are atomic; the newest user message and everything
 * after it are always kept; the output starts with a user message and has no unpaired tool call or result.
 * Deterministic for a deterministic summarizer. Throws only for an invalid config, never for summarizer failure.
 */
export async function compactHistory(entries: HistoryEntry[], options: CompactHistoryOptions): Promise<CompactionOutcome> {
  const { config } = options;
  validateCompactionConfig(config);
  const sizer = createPromptSizer();
  const stages: CompactionStage[] = [];
  const flat = entries.flatMap((entry) => entry.messages);
  const charsBefore = sizer.messages(flat);

  // 1. Truncate tool results.
  const truncation = truncateToolResults(flat, config, sizer);
  if (truncation.truncated > 0) stages.push('truncate');
  let conversation = regroup(entries, truncation.messages, sizer);

  // 2. Apply the cached summary.
  let activeSummary: ConversationSummary | null = null;
  const cached = options.cachedSummary;
  if (cached && cached.text.trim() !== '') {
    const through = conversation.findIndex((unit) => unit.id === cached.throughId);
    if (through >= 0 && through < protectedStart(conversation)) {
      conversation = conversation.slice(through + 1);
      activeSummary = cached;
      stages.push('cached-summary');
    }
  }
  const overBudget = () => sizer.groups(withSummary(activeSummary, conversation, sizer).map((u) => u.messages)) > config.contextBudget;

  // 3. Summarize the older half.
  let summary: ConversationSummary | null = null;
  let summarizerError: string | undefined;
  let summarizedEntries = 0;
  const half = Math.min(Math.floor(conversation.length / 2), protectedStart(conversation));
  if (options.summarize && half > 0 && overBudget()) {
    const older = conversation.slice(0, half);
    const run = await runSummarizer(
      options.summarize,
      {
        messages: summarizerInput(older, config.contextBudget),
        ...(activeSummary ? { previousSummary: activeSummary.text } : {}),
      },
      { timeoutMs: config.summarizerTimeoutMs, ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}) },
    );
    if (run.ok) {
      summary = { text: run.text, throughId: (older[half - 1] as EntryUnit).id };
      activeSummary = summary;
      conversation = conversation.slice(half);
      summarizedEntries = half;
      stages.push('summarize');
    } else {
      summarizerError = run.error;
    }
  }

  // 4. Sliding window, then drop orphaned tool parts.
  const units = withSummary(activeSummary, conversation, sizer);
  const hasSummary = activeSummary !== null;
  const window = applySlidingWindow(units, {
    contextBudget: config.contextBudget,
    minKept: config.minKept,
    protectedFrom: (hasSummary ? 1 : 0) + protectedStart(conversation),
    summaryFirst: hasSummary,
  });
  if (window.dropped > 0) stages.push('window');
  const finished = finishCompaction(
    window.kept,
    { stages, charsBefore, droppedEntries: window.dropped, truncatedToolResults: truncation.truncated },
    config,
    sizer,
  );
  return {
    messages: finished.messages,
    summary,
    activeSummary,
    report: {
      ...finished.report,
      summarizedEntries,
      ...(summarizerError === undefined ? {} : { summarizerError }),
    },
  };
}

/** Entries again, over the truncated messages (same order and counts). */
function regroup(entries: HistoryEntry[], messages: ModelMessage[], sizer: PromptSizer): EntryUnit[] {
  let offset = 0;
  return entries.map((entry) => {
    const unitMessages = messages.slice(offset, offset + entry.messages.length);
    offset += entry.messages.length;
    let size = 0;
    for (const msg of unitMessages) size += sizer.message(msg);
    return { id: entry.id, messages: unitMessages, size };
  });
}

function withSummary(summary: ConversationSummary | null, conversation: EntryUnit[], sizer: PromptSizer): EntryUnit[] {
  if (summary === null) return conversation;
  const message = createSummaryMessage(summary.text);
  return [{ id: `summary:${summary.throughId}`, messages: [message], size: sizer.message(message) }, ...conversation];
}

/**
 * The messages handed to the summarizer: the older half, bounded by the budget so the summarizer's own prompt
 * stays sendable. When the half is larger than that, its oldest entries are left out (they are lost, as the
 * window would lose them); the newest entry of the half is always included.
 */
function summarizerInput(older: EntryUnit[], budget: number): ModelMessage[] {
  let chars = 0;
  let from = older.length;
  while (from > 0) {
    const next = chars + (older[from - 1] as EntryUnit).size;
    if (from < older.length && next > budget) break;
    chars = next;
    from--;
  }
  return older.slice(from).flatMap((unit) => unit.messages);
}
