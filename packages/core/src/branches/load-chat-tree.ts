import type { RecordAccess, RecordEnvelope } from '@chatwire/storage';
import { loadChatMessages } from '../prompt/load-history.js';
import type { MessageData } from '../records/chat-collections.js';
import { toWireMessage } from '../records/message-record-id.js';
import { ChatTree, type BranchPosition } from './chat-tree.js';
import type { BranchPlacement } from './place-turn.js';

/** A message of the active path as the routes return it: the client's ids, and its place among its siblings. */
export type BranchedMessage = RecordEnvelope<MessageData> & { branch: BranchPosition };

/** Every message of a chat, as a tree (the chat's rows, one query per 200, as the linear history reads them). */
export async function loadChatTree(access: RecordAccess, chatId: string): Promise<ChatTree> {
  return new ChatTree(await loadChatMessages(access, chatId));
}

/** The stored rows from the first message down to `end` (null: none, and nothing is read). */
export async function loadBranchPath(access: RecordAccess, chatId: string, end: string | null): Promise<RecordEnvelope<MessageData>[]> {
  return end === null ? [] : (await loadChatTree(access, chatId)).pathTo(end);
}

/** The path down to `leaf`, each message with its `branch`; `parentId` (a recordId) stays internal. */
export function branchedPath(tree: ChatTree, leaf: string | null): BranchedMessage[] {
  return tree.pathTo(leaf).map((row) => {
    const wire = toWireMessage(row);
    const { parentId: _parentId, ...data } = wire.data;
    return { ...wire, data: data as MessageData, branch: tree.positionOf(row.recordId) };
  });
}

/**
 * The rows a tree turn's prompt answers: the path its admission read (once: the turn keeps no copy of its
 * history while the model streams), else read again (a later step of the turn; it holds the chat's lease,
 * so the path is the same).
 */
export async function takeBranchPath(access: RecordAccess, chatId: string, branch: BranchPlacement): Promise<RecordEnvelope<MessageData>[]> {
  const rows = branch.pathRows;
  if (rows) {
    delete branch.pathRows;
    return rows;
  }
  return loadBranchPath(access, chatId, branch.pathEnd);
}

/** `GET /chats/:id` of a tree chat: the path down to its active leaf, each message with its `branch`. */
export async function readActivePath(access: RecordAccess, chatId: string, activeLeafId: unknown): Promise<BranchedMessage[]> {
  const tree = await loadChatTree(access, chatId);
  return branchedPath(tree, tree.activeLeaf(activeLeafId));
}

/** What a copy of the chat shows (a share link): its active path once a tree turn set one, else every message. */
export async function shownMessages(access: RecordAccess, chatId: string, activeLeafId: unknown): Promise<RecordEnvelope<MessageData>[]> {
  const rows = await loadChatMessages(access, chatId);
  if (typeof activeLeafId !== 'string') return rows;
  const tree = new ChatTree(rows);
  return tree.pathTo(tree.activeLeaf(activeLeafId));
}
