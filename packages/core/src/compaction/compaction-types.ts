import type { ModelMessage } from 'ai';

export interface CompactionConfig {
  /** Prompt budget in characters (spec 8.2 default 240000). */
  contextBudget: number;
  /** Maximum bytes of one tool result (default 30000). */
  toolResultCap: number;
  /** Most recent tool results kept intact (default 5). */
  keepRecentToolResults: number;
  /** Sliding-window floor in messages (default 10). */
  minKept: number;
  /** Summarizer time limit in ms before falling back to the window (default 30000). */
  summarizerTimeoutMs: number;
  /**
   * Bytes an OLD tool result (older than the `keepRecentToolResults` most recent) is cut to, marker included
   * (default 1000). 0 keeps only the marker. Must not exceed `toolResultCap`.
   */
  oldToolResultBytes?: number;
}

/**
 * One unit of history that compaction never splits: a stored message row (an assistant row expands to
 * assistant + tool messages), the new user message, or the turn's in-flight steps. `id` is the row's recordId.
 */
export interface HistoryEntry {
  id: string;
  messages: ModelMessage[];
}

/** A summary of every entry up to and including `throughId`. Stored in the `ai-turns` row that produced it. */
export interface ConversationSummary {
  text: string;
  throughId: string;
}

export type Summarizer = (input: {
  messages: ModelMessage[];
  previousSummary?: string;
  abortSignal?: AbortSignal;
}) => Promise<string>;

export type CompactionStage = 'truncate' | 'cached-summary' | 'summarize' | 'window';

export interface CompactionReport {
  stages: CompactionStage[];
  charsBefore: number;
  charsAfter: number;
  withinBudget: boolean;
  droppedEntries: number;
  /** Set when the summarizer failed or timed out and the window was used instead. */
  summarizerError?: string;
  /** Tool results whose payload was replaced by a truncation marker (stage 1). */
  truncatedToolResults?: number;
  /** Entries folded into the new summary (stage 3). */
  summarizedEntries?: number;
  /** Orphaned tool-call / tool-result parts and leading non-user messages removed from the output. */
  droppedOrphans?: number;
}

export interface CompactionOutcome {
  messages: ModelMessage[];
  /** The summary produced by this call, or null when none was produced. */
  summary: ConversationSummary | null;
  /**
   * The summary that now stands for the start of the conversation: the new one, else the cached one when it was
   * applied, else null. (The window may still have dropped its message when even the floor was over budget.)
   */
  activeSummary?: ConversationSummary | null;
  report: CompactionReport;
}
