import { createHash } from 'node:crypto';
import { ChatwireError, type RecordAccess, type RecordEnvelope } from '@chatwire/storage';
import { AI_USAGE } from '../records/chat-collections.js';
import { utcDate } from './utc-day.js';
import type { UsageRow } from './read-usage.js';

/** One row of the usage ledger (`ai-usage`): a user's turns of one model on one UTC day. */
export interface UsageLedgerRow extends UsageRow, Record<string, unknown> {
  userId: string;
  /** The turn added last: adding the same turn again right after changes nothing (a retried save). */
  lastTurnId: string;
}

/** What one or more turns add to a ledger row. */
export interface UsageAmounts {
  turns: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** The fields of a stored `ai-turns` row that the ledger reads. */
export interface TurnRowUsage extends Record<string, unknown> {
  userId: string;
  modelId: string;
  usage?: { input?: unknown; output?: unknown; total?: unknown } | null;
}

/** The recordId of a user's ledger row of one day and model (a hash: any user and model id fits the id alphabet). */
export function usageLedgerRecordId(userId: string, date: string, modelId: string): string {
  return 'usage.' + createHash('sha256').update(JSON.stringify([userId, date, modelId]), 'utf8').digest('base64url');
}

/** A token count of a stored usage object: a non-negative finite number, else 0. */
export function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** What a stored turn row adds to the ledger: one turn and its tokens. */
export function turnAmounts(row: TurnRowUsage): UsageAmounts {
  return { turns: 1, inputTokens: tokens(row.usage?.input), outputTokens: tokens(row.usage?.output), totalTokens: tokens(row.usage?.total) };
}

/** Adds a stored turn row (as `create` returned it) to its user's ledger row of that day and model. */
export function addTurnToUsageLedger(tx: RecordAccess, turnRow: RecordEnvelope<TurnRowUsage>): Promise<void> {
  const { userId, modelId } = turnRow.data;
  return addToUsageLedger(tx, { userId, modelId, date: utcDate(Date.parse(turnRow.createdAt)) }, turnAmounts(turnRow.data), turnRow.recordId);
}

/**
 * Adds `amounts` to the ledger row of `key`, creating it on the day's first turn of that model. Call it
 * inside the transaction that stores what is counted, as the last write of that transaction.
 *
 * Concurrent turns of one user (other chats, other processes) add to the same row without losing an
 * update: the empty `update` first locks the row on SQL drivers and returns its newest version (each
 * statement of a READ COMMITTED transaction sees what committed before it), so the sums written next
 * start from that version; the memory driver runs transactions one at a time. Two first turns of a day
 * racing to create the row: the second `create` is a CONFLICT (`lastTurnId` makes the two rows differ),
 * and it adds to the row the first one committed.
 */
export async function addToUsageLedger(
  tx: RecordAccess,
  key: { userId: string; date: string; modelId: string },
  amounts: UsageAmounts,
  lastTurnId: string,
): Promise<void> {
  const recordId = usageLedgerRecordId(key.userId, key.date, key.modelId);
  for (let attempt = 0; ; attempt++) {
    const current = await lockRow(tx, recordId);
    if (current) {
      const row = current.data;
      if (row.lastTurnId === lastTurnId) return; // already added (the retry of a save that had committed)
      await tx.update(AI_USAGE, recordId, {
        turns: row.turns + amounts.turns,
        inputTokens: row.inputTokens + amounts.inputTokens,
        outputTokens: row.outputTokens + amounts.outputTokens,
        totalTokens: row.totalTokens + amounts.totalTokens,
        lastTurnId,
      });
      return;
    }
    try {
      const row: UsageLedgerRow = { ...key, ...amounts, lastTurnId };
      await tx.create(AI_USAGE, row, { recordId });
      return;
    } catch (error) {
      if (!ChatwireError.is(error, 'CONFLICT') || attempt > 0) throw error;
    }
  }
}

/** The row, locked until the transaction ends (SQL drivers), or null when there is none yet. */
async function lockRow(tx: RecordAccess, recordId: string): Promise<RecordEnvelope<UsageLedgerRow> | null> {
  try {
    return await tx.update<UsageLedgerRow>(AI_USAGE, recordId, {});
  } catch (error) {
    if (ChatwireError.is(error, 'NOT_FOUND')) return null;
    throw error;
  }
}
