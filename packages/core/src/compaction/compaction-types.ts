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
}

export interface CompactionOutcome {
  messages: ModelMessage[];
  /** The summary produced by this call, or null when none was produced. */
  summary: ConversationSummary | null;
  report: CompactionReport;
}
