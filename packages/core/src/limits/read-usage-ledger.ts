import type { RecordEnvelope, RecordStore } from '@chatwire/storage';
import { AI_USAGE } from '../records/chat-collections.js';
import type { UsageLedgerRow } from './add-to-usage-ledger.js';
import { utcDate } from './utc-day.js';

const PAGE = 500;

/**
 * The user's ledger rows of the UTC days from `fromMs` up to (not including) `toMs`, newest first. Reads
 * through the driver's (userId, createdAt desc) index and stops at the first row created before `fromMs`:
 * a ledger row is created with the first turn it counts, so it is never older than its own day, and the
 * rows read are those of the days since `from` (days x models), whatever the number of turns. Server
 * rights, the user's own rows only.
 */
export async function readUsageLedger(store: RecordStore, userId: string, fromMs: number, toMs: number): Promise<UsageLedgerRow[]> {
  const from = utcDate(fromMs);
  const to = utcDate(toMs - 1);
  const rows: UsageLedgerRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.driver.query(AI_USAGE, {
      filter: { userId },
      orderBy: { field: 'createdAt', direction: 'desc' },
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const record of page.records as RecordEnvelope<UsageLedgerRow>[]) {
      if (Date.parse(record.createdAt) < fromMs) return rows;
      const { date } = record.data;
      if (date >= from && date <= to) rows.push(record.data);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}
