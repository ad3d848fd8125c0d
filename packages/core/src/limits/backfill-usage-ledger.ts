import { ChatwireError, type RecordAccess, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import { AI_TURNS, AI_USAGE_SCHEMA, AI_TURNS_SCHEMA } from '../records/chat-collections.js';
import { addToUsageLedger, turnAmounts, usageLedgerRecordId, type TurnRowUsage, type UsageAmounts } from './add-to-usage-ledger.js';
import { utcDate } from './utc-day.js';

export interface BackfillUsageOptions {
  /** Turn rows per transaction (default 200). */
  batchSize?: number;
}

interface Group {
  key: { userId: string; date: string; modelId: string };
  amounts: UsageAmounts;
  lastTurnId: string;
}

/**
 * Adds the turn rows stored before the usage ledger existed (rows without `usageCounted`) to the ledger,
 * and marks each one counted in the same transaction, so running it again, or twice at once, never counts
 * a turn twice. Run it once after every process runs a version with the ledger (turns stored since are
 * counted as they are stored); until then `GET /usage` and the token quota read from the store do not see
 * the older turns. Reads every turn row once; returns how many it added.
 */
export async function backfillUsageLedger(store: RecordStore, options: BackfillUsageOptions = {}): Promise<{ turns: number }> {
  const batchSize = options.batchSize ?? 200;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new ChatwireError('CONFIGURATION', `backfillUsageLedger: batchSize must be a positive integer, got ${String(batchSize)}`);
  }
  store.register(AI_TURNS_SCHEMA);
  store.register(AI_USAGE_SCHEMA);
  const server = store.asServer();
  let added = 0;
  let cursor: string | undefined;
  do {
    const page = await store.driver.query(AI_TURNS, {
      filter: { usageCounted: { exists: false } },
      orderBy: { field: 'createdAt', direction: 'asc' },
      limit: batchSize,
      ...(cursor ? { cursor } : {}),
    });
    if (page.records.length > 0) {
      added += await server.transaction((tx) => countRows(tx, page.records.map((record) => record.recordId)));
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { turns: added };
}

/** Marks the rows still uncounted (each locked first) and adds them to the ledger, one addition per ledger row. */
async function countRows(tx: RecordAccess, recordIds: string[]): Promise<number> {
  const groups = new Map<string, Group>();
  for (const recordId of recordIds) {
    const row = await lockTurnRow(tx, recordId);
    if (!row || row.data.usageCounted === true) continue; // deleted meanwhile, or counted by another run
    await tx.update(AI_TURNS, recordId, { usageCounted: true });
    const key = { userId: row.data.userId, date: utcDate(Date.parse(row.createdAt)), modelId: row.data.modelId };
    const id = usageLedgerRecordId(key.userId, key.date, key.modelId);
    const amounts = turnAmounts(row.data);
    const group = groups.get(id);
    if (!group) {
      groups.set(id, { key, amounts, lastTurnId: recordId });
      continue;
    }
    group.lastTurnId = recordId;
    for (const field of ['turns', 'inputTokens', 'outputTokens', 'totalTokens'] as const) group.amounts[field] += amounts[field];
  }
  // Ledger rows in one order, so two runs at once never wait on each other in a circle.
  let counted = 0;
  for (const [, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await addToUsageLedger(tx, group.key, group.amounts, group.lastTurnId);
    counted += group.amounts.turns;
  }
  return counted;
}

async function lockTurnRow(tx: RecordAccess, recordId: string): Promise<RecordEnvelope<TurnRowUsage & { usageCounted?: boolean }> | null> {
  try {
    return await tx.update<TurnRowUsage & { usageCounted?: boolean }>(AI_TURNS, recordId, {});
  } catch (error) {
    if (ChatwireError.is(error, 'NOT_FOUND')) return null;
    throw error;
  }
}
