import { ChatwireError, type RecordAccess, type RecordData } from '@chatwire/storage';
import { AI_CHATS, AI_MESSAGES, AI_TURNS } from '../chat/chat-collections.js';

export interface TurnRows {
  chatId: string;
  user: { recordId: string; data: RecordData };
  assistant: { recordId: string; data: RecordData };
  turn: { recordId: string; data: RecordData };
}

export type PersistOutcome =
  | { status: 'stored' }
  | { status: 'chat-deleted' }
  | { status: 'failed'; stage: 'user' | 'assistant' | 'turn'; error: unknown };

const ATTEMPTS = 2;

async function attempt(write: () => Promise<unknown>): Promise<unknown> {
  let last: unknown;
  for (let i = 0; i < ATTEMPTS; i++) {
    try {
      await write();
      return undefined;
    } catch (error) {
      last = error;
    }
  }
  return last ?? new Error('write failed');
}

/**
 * Writes a completed turn: user row, assistant row, turn row, in that order (spec 4.5 step 6). Inserts
 * are idempotent by recordId, so a retried write never duplicates a row.
 *
 * With driver transactions the three rows are written atomically; the transaction is retried once, so
 * "the user write fails twice" still leaves nothing. Without transactions each write is retried once;
 * a user write that fails twice skips the rest, and an assistant write that fails twice removes the user
 * row again (best effort) so history stays paired.
 */
export async function persistTurn(access: RecordAccess, rows: TurnRows, transactional: boolean): Promise<PersistOutcome> {
  const create = (a: RecordAccess, collection: string, row: { recordId: string; data: RecordData }) =>
    a.create(collection, row.data, { recordId: row.recordId });

  if (transactional) {
    let stage: 'user' | 'assistant' | 'turn' = 'user';
    let deleted = false;
    const error = await attempt(() =>
      access.transaction(async (tx) => {
        // Writing the chat row takes its row lock in SQL drivers, so a concurrent delete of the chat either
        // waits for this transaction (and then removes these rows too) or has already won and no chat is left.
        if (!(await touchChat(tx, rows.chatId))) {
          deleted = true;
          return;
        }
        stage = 'user';
        await create(tx, AI_MESSAGES, rows.user);
        stage = 'assistant';
        await create(tx, AI_MESSAGES, rows.assistant);
        stage = 'turn';
        await create(tx, AI_TURNS, rows.turn);
      }),
    );
    if (deleted) return { status: 'chat-deleted' };
    return error === undefined ? { status: 'stored' } : { status: 'failed', stage, error };
  }

  if (!(await access.find(AI_CHATS, rows.chatId))) return { status: 'chat-deleted' };
  const userError = await attempt(() => create(access, AI_MESSAGES, rows.user));
  if (userError !== undefined) return { status: 'failed', stage: 'user', error: userError };
  const assistantError = await attempt(() => create(access, AI_MESSAGES, rows.assistant));
  if (assistantError !== undefined) {
    await access.delete(AI_MESSAGES, rows.user.recordId).catch(() => undefined);
    return { status: 'failed', stage: 'assistant', error: assistantError };
  }
  const turnError = await attempt(() => create(access, AI_TURNS, rows.turn));
  return turnError === undefined ? { status: 'stored' } : { status: 'failed', stage: 'turn', error: turnError };
}

/** Re-writes the chat's title (bumping `updatedAt`); false when the chat is gone. */
async function touchChat(tx: RecordAccess, chatId: string): Promise<boolean> {
  const chat = await tx.find<{ title: string }>(AI_CHATS, chatId);
  if (!chat) return false;
  try {
    await tx.update(AI_CHATS, chatId, { title: chat.data.title });
    return true;
  } catch (error) {
    if (ChatwireError.is(error, 'NOT_FOUND')) return false;
    throw error;
  }
}
