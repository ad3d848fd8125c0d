import { ChatwireError, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import { AI_CHATS, type ChatData } from '../records/chat-collections.js';
import { wireMessageId } from '../records/message-record-id.js';
import { releaseLease } from '../turn/release-lease.js';
import { branchedPath, loadChatTree, type BranchedMessage } from './load-chat-tree.js';

export interface SwitchBranchOptions {
  store: RecordStore;
  leaseTtlMs: number;
  report(error: unknown): void;
}

/**
 * Makes the newest leaf under `messageId` (a message of this chat, by the id its client knows) the chat's
 * active leaf, and returns the chat and its new active path, read in the same transaction. It takes the
 * chat's lease, as a turn does: while a turn runs it answers CHAT_BUSY, and a turn admitted meanwhile waits
 * for nothing (it is refused), so a turn's parent never changes under it. The chat is the caller's (checked
 * by the caller of this function).
 */
export async function switchBranch(
  options: SwitchBranchOptions,
  chatId: string,
  input: unknown,
): Promise<{ chat: RecordEnvelope<ChatData>; messages: BranchedMessage[] }> {
  const messageId = parseSwitchInput(input);
  const lease = await options.store.leases.acquire(`chat:${chatId}`, { ttlMs: options.leaseTtlMs });
  if (!lease) throw new ChatwireError('CHAT_BUSY', 'A turn of this chat is still streaming; retry when it has finished');
  try {
    return await options.store.asServer().transaction(async (tx) => {
      const tree = await loadChatTree(tx, chatId);
      const row = tree.rows.find((r) => wireMessageId(r) === messageId);
      if (!row) throw new ChatwireError('MESSAGE_NOT_FOUND', `Message '${messageId}' is not a message of this chat`);
      const leaf = tree.newestLeafUnder(row.recordId);
      const chat = await tx.update<ChatData>(AI_CHATS, chatId, { activeLeafId: leaf });
      return { chat, messages: branchedPath(tree, leaf) };
    });
  } finally {
    await releaseLease(lease, options.leaseTtlMs, options.report);
  }
}

function parseSwitchInput(input: unknown): string {
  const messageId = typeof input === 'object' && input !== null ? (input as { messageId?: unknown }).messageId : undefined;
  if (typeof messageId !== 'string' || messageId.length === 0) {
    throw new ChatwireError('VALIDATION', 'messageId must be a non-empty string', { details: { field: 'messageId' } });
  }
  return messageId;
}
