import type { RecordAccess } from '@chatwire/storage';
import { AI_CHATS, AI_MESSAGES } from '../records/chat-collections.js';
import type { Turn } from '../turn/turn.js';
import type { BranchPlacement } from './place-turn.js';

/**
 * The rows a tree turn adds before its answer, inside the save's transaction: its user row (a submit's
 * message, or an edit's new sibling: the edited message keeps its id and content), and the chat's active
 * leaf moves to the turn's assistant message. Nothing is updated in place nor deleted.
 */
export async function writeBranchUser(tx: RecordAccess, turn: Turn, branch: BranchPlacement, content: string, parts: unknown[]): Promise<void> {
  const { chatId, plan } = turn;
  if (branch.user) {
    const messageId = plan.trigger === 'submit' ? { messageId: plan.userMessageId } : {};
    const data = { chatId, userId: turn.caller.userId, role: 'user', content, parts, ...messageId, parentId: branch.user.parentId };
    await tx.create(AI_MESSAGES, data, { recordId: branch.user.recordId });
  }
  await tx.update(AI_CHATS, chatId, { activeLeafId: turn.id });
}

/** The assistant row's `parentId` in a tree (nothing in a linear chat). */
export function assistantParent(branch: BranchPlacement | undefined): { parentId?: string } {
  return branch?.assistant ? { parentId: branch.assistant.parentId } : {};
}
