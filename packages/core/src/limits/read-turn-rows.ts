import type { RecordEnvelope, RecordStore } from '@chatwire/storage';
import { AI_TURNS } from '../records/chat-collections.js';

const PAGE = 1_000;

/** The fields of an `ai-turns` row that usage and quotas read. */
export interface TurnUsageRow {
  modelId: string;
  usage: { input?: number | null; output?: number | null; total?: number | null } | undefined;
}

/**
 * Calls `visit` for each of the user's turn rows created at or after `fromMs`, newest first, reading
 * through the driver's (userId, createdAt desc) index and stopping at the first older row. Read with
 * server rights, filtered to the user's own rows.
 */
export async function readTurnRowsSince(
  store: RecordStore,
  userId: string,
  fromMs: number,
  visit: (row: TurnUsageRow, createdAtMs: number) => void,
): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await store.driver.query(AI_TURNS, {
      filter: { userId },
      orderBy: { field: 'createdAt', direction: 'desc' },
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const record of page.records as RecordEnvelope[]) {
      const createdAtMs = Date.parse(record.createdAt);
      if (createdAtMs < fromMs) return;
      visit(record.data as unknown as TurnUsageRow, createdAtMs);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** A token count of a stored usage object: a non-negative finite number, else 0. */
export function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
