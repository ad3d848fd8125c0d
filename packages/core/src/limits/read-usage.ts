import type { RecordStore } from '@chatwire/storage';
import type { UsageRange } from './parse-usage-query.js';
import { readUsageLedger } from './read-usage-ledger.js';

/** One row of `GET /usage`: a user's turns of one model on one UTC day. */
export interface UsageRow {
  /** `YYYY-MM-DD`, the UTC day of the turns' `createdAt`. */
  date: string;
  modelId: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/**
 * The user's token sums per UTC day and model over `range`, sorted by date then model id: the rows of
 * the usage ledger (`ai-usage`), which every stored turn adds to (stopped turns included; turns later
 * replaced by an edit or a regenerate, and turns of deleted chats, stay counted).
 */
export async function readUsage(store: RecordStore, userId: string, range: UsageRange): Promise<UsageRow[]> {
  const rows = await readUsageLedger(store, userId, range.fromMs, range.toMs);
  return rows
    .map(({ date, modelId, turns, inputTokens, outputTokens, totalTokens }) => ({ date, modelId, turns, inputTokens, outputTokens, totalTokens }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.modelId < b.modelId ? -1 : a.modelId > b.modelId ? 1 : 0));
}
