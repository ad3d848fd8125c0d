import type { RecordStore } from '@chatwire/storage';
import { readTurnRowsSince, tokens } from './read-turn-rows.js';
import type { UsageRange } from './parse-usage-query.js';
import { utcDate } from './utc-day.js';

/** One row of `GET /usage`: a user's turns of one model on one UTC day. */
export interface UsageRow {
  date: string;
  modelId: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/**
 * The user's token sums per UTC day and model over `range`, from their stored `ai-turns` rows (stopped
 * turns included), sorted by date then model id.
 */
export async function readUsage(store: RecordStore, userId: string, range: UsageRange): Promise<UsageRow[]> {
  const rows = new Map<string, UsageRow>();
  await readTurnRowsSince(store, userId, range.fromMs, (row, createdAtMs) => {
    if (createdAtMs >= range.toMs) return;
    const date = utcDate(createdAtMs);
    const modelId = String(row.modelId);
    const key = `${date}\u0000${modelId}`;
    let sum = rows.get(key);
    if (!sum) rows.set(key, (sum = { date, modelId, turns: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }));
    sum.turns++;
    sum.inputTokens += tokens(row.usage?.input);
    sum.outputTokens += tokens(row.usage?.output);
    sum.totalTokens += tokens(row.usage?.total);
  });
  return [...rows.values()].sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.modelId < b.modelId ? -1 : a.modelId > b.modelId ? 1 : 0,
  );
}
