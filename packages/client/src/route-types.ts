/** A chat as the routes return it (flat, DESIGN "HTTP contract"). Timestamps are ISO 8601 strings. */
export interface ChatRecord {
  recordId: string;
  userId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

import type { BranchPosition } from './branch-position.js';

export type MessageRole = 'user' | 'assistant';

/** A stored assistant message's status; a row without one reads as `'complete'`. */
export type MessageStatus = 'complete' | 'stopped' | 'awaiting-approval';

/** A stored message: a record envelope of `ai-messages` (spec 2.1, 2.3). */
export interface MessageRecord {
  /** For a user row: the client's `userMessageId`; for an assistant row: the turn's `X-Asst-Id`. */
  recordId: string;
  data: {
    chatId: string;
    userId: string;
    role: MessageRole;
    content: string;
    /** UI-shaped tool invocations, for rendering. */
    parts?: unknown[];
    /** Assistant rows: `'stopped'` when the stop route ended the answer; absent or `'complete'` otherwise. */
    status?: MessageStatus;
  };
  createdAt: string;
  updatedAt: string;
  /** Tree history (`history: 'tree'` on the server): the message's place among its siblings. */
  branch?: BranchPosition;
  /** The caller's rating of this answer, when there is one. */
  feedback?: { rating: 'up' | 'down'; comment?: string; updatedAt: string };
}

export interface ChatPage {
  chats: ChatRecord[];
  /** Pass to `listChats({ cursor })` for the next page; `null` on the last page. */
  nextCursor: string | null;
}

export interface ChatWithMessages {
  chat: ChatRecord;
  messages: MessageRecord[];
}

export interface DeleteResult {
  chatId: string;
  /** Number of messages deleted with the chat. */
  messages: number;
}
