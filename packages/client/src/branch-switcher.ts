import type { UIMessage } from 'ai';
import type { BranchPosition } from './branch-position.js';
import { createRequester, readJson, type ConnectionOptions } from './create-requester.js';
import type { ChatWithMessages, MessageRecord } from './route-types.js';
import type { ApprovalChunks } from './sdk-approval-chunks.js';
import { withApprovalRequested } from './sdk-approval-parts.js';

/** A stored message as `useChat` holds it; tree history puts its `branch` in `metadata`. */
export type BranchedUiMessage = UIMessage<{ branch?: BranchPosition; status?: string }>;

export interface BranchSwitcher {
  /**
   * `POST /chats/:id/active`: the newest leaf under `messageId` (a sibling's id: `branch.prevId`/`nextId`)
   * becomes the chat's active path, which the server keeps (a reload shows it). Resolves to that path as
   * `useChat` messages: pass them to `setMessages`.
   */
  switchBranch(chatId: string, messageId: string, options?: { signal?: AbortSignal }): Promise<BranchedUiMessage[]>;
}

/** Options of `toUiMessages`. */
export interface UiMessagesOptions {
  /** `'sdk'` (AI SDK 6/7, as the transport's option): a paused call's tool part is `approval-requested`. */
  approvalChunks?: ApprovalChunks;
}

/** Branch switching for a `useChat` app (the transport's connection options, and its `approvalChunks`). */
export function createBranchSwitcher(options: ConnectionOptions & UiMessagesOptions): BranchSwitcher {
  const request = createRequester(options);
  return {
    async switchBranch(chatId, messageId, { signal } = {}) {
      const res = request('POST', `/chats/${encodeURIComponent(chatId)}/active`, { body: { messageId }, signal });
      return toUiMessages((await readJson<ChatWithMessages>(await res, 'POST /chats/:id/active')).messages, options);
    },
  };
}

/**
 * Stored messages (`getChat`, `switchBranch`) as `useChat` messages: same ids, the stored UI parts (or the
 * text as one part), and `metadata.branch` / `metadata.status` when the row has them. With `approvalChunks:
 * 'sdk'`, a paused turn's calls are `approval-requested` (see `withApprovalRequested`).
 */
export function toUiMessages(messages: readonly MessageRecord[], { approvalChunks }: UiMessagesOptions = {}): BranchedUiMessage[] {
  return messages.map((m) => {
    const parts = Array.isArray(m.data.parts) && m.data.parts.length > 0 ? m.data.parts : [{ type: 'text', text: m.data.content }];
    const metadata = { ...(m.branch ? { branch: m.branch } : {}), ...(m.data.status ? { status: m.data.status } : {}) };
    const message: BranchedUiMessage = { id: m.recordId, role: m.data.role, parts: parts as BranchedUiMessage['parts'], ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
    return approvalChunks === 'sdk' ? withApprovalRequested(message) : message;
  });
}
