import { ChatwireError, type Caller, type RecordAccess, type RecordEnvelope } from '@chatwire/storage';
import { AI_CHATS, type MessageData } from '../records/chat-collections.js';
import { wireMessageId } from '../records/message-record-id.js';
import type { TurnPlan } from '../turn/turn-plan.js';
import { ChatTree, type BranchPosition } from './chat-tree.js';
import { loadChatTree } from './load-chat-tree.js';

/** Where a turn of a tree chat writes, decided when it is admitted (it then holds the chat's lease). */
export interface BranchPlacement {
  /** The prompt answers the stored path from the first message down to this row (null: no stored row). */
  pathEnd: string | null;
  /** The user row the turn adds (a submit's message, an edit's new sibling); a regenerate adds none. */
  user?: { recordId: string; wireId: string; parentId: string | null; position: BranchPosition };
  /** The assistant row the turn adds, under this user row; a continued turn adds none. */
  assistant?: { parentId: string; position: BranchPosition };
  /** The path as read at admission: taken by the turn's first prompt (see `takeBranchPath`), then gone. */
  pathRows?: RecordEnvelope<MessageData>[];
}

/**
 * Places a turn in its chat's tree. A submit goes under the active leaf; a regenerate adds an assistant
 * sibling under its user message (by default the last user message of the active path); an edit adds a user
 * sibling under the edited message's parent, with a new id chosen here, and its answer under that. A turn
 * continued after approvals goes on in its own assistant row. Returns the placement and, for a regenerate
 * without an explicit message, the user message it answers.
 */
export async function placeTurn(
  server: RecordAccess,
  caller: Caller,
  chatId: string,
  plan: TurnPlan,
  options: { newChat: boolean; explicitMessage: boolean },
): Promise<{ branch: BranchPlacement; userMessageId: string }> {
  if (plan.trigger === 'approval') return { branch: { pathEnd: plan.turnId }, userMessageId: plan.userMessageId };
  const tree = options.newChat ? new ChatTree([]) : await loadChatTree(server, chatId);
  const chat = options.newChat ? null : await server.find(AI_CHATS, chatId);
  const leaf = tree.activeLeaf(chat?.data.activeLeafId);
  if (plan.trigger === 'submit') {
    const user = { recordId: plan.recordId, wireId: plan.userMessageId, parentId: leaf, position: tree.positionOfNewChild(leaf) };
    return { branch: { pathEnd: leaf, user, assistant: firstAnswer(plan.recordId, plan.userMessageId), pathRows: tree.pathTo(leaf) }, userMessageId: plan.userMessageId };
  }
  const target = plan.trigger === 'regenerate' && !options.explicitMessage ? lastUserOnPath(tree, leaf) : userRow(tree, caller, plan.userMessageId);
  if (plan.trigger === 'regenerate') {
    const assistant = { parentId: target, position: tree.positionOfNewChild(target) };
    return { branch: { pathEnd: target, assistant, pathRows: tree.pathTo(target) }, userMessageId: wireMessageId(tree.byId.get(target)!) };
  }
  const parent = tree.parentOf(target);
  const id = crypto.randomUUID();
  const user = { recordId: id, wireId: id, parentId: parent, position: tree.positionOfNewChild(parent) };
  return { branch: { pathEnd: target, user, assistant: firstAnswer(id, id), pathRows: tree.pathTo(target) }, userMessageId: plan.userMessageId };
}

function firstAnswer(userRecordId: string, userWireId: string): NonNullable<BranchPlacement['assistant']> {
  return { parentId: userRecordId, position: { parentId: userWireId, index: 0, count: 1, prevId: null, nextId: null } };
}

function userRow(tree: ChatTree, caller: Caller, messageId: string): string {
  const row = tree.rows.find((r) => r.data.role === 'user' && r.data.userId === caller.userId && wireMessageId(r) === messageId);
  if (!row) throw new ChatwireError('MESSAGE_NOT_FOUND', `Message '${messageId}' is not a user message of this chat`);
  return row.recordId;
}

function lastUserOnPath(tree: ChatTree, leaf: string | null): string {
  const row = tree.pathTo(leaf).findLast((r) => r.data.role === 'user');
  if (!row) throw new ChatwireError('VALIDATION', 'There is no user message to regenerate', { details: { field: 'userMessageId' } });
  return row.recordId;
}

/** The `start` chunk's `messageMetadata` of a tree turn: the new assistant message's position (and the new user message's). */
export function branchStartMetadata(branch: BranchPlacement | undefined): { messageMetadata: Record<string, unknown> } | Record<string, never> {
  if (!branch?.assistant) return {};
  const user = branch.user ? { userMessage: { id: branch.user.wireId, branch: branch.user.position } } : {};
  return { messageMetadata: { branch: branch.assistant.position, ...user } };
}
