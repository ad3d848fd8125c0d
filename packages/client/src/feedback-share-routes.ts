import { readJson, type Requester } from './create-requester.js';
import type { MessageRole } from './route-types.js';

export type FeedbackRating = 'up' | 'down';

/** A stored rating (`PUT /chats/:id/messages/:mid/feedback`). */
export interface Feedback {
  chatId: string;
  messageId: string;
  rating: FeedbackRating;
  comment?: string;
  /** The model that wrote the rated answer. */
  modelId: string;
  createdAt: string;
  updatedAt: string;
}

/** A share link as its owner sees it (`POST /chats/:id/shares`). */
export interface Share {
  shareId: string;
  chatId: string;
  title: string;
  messageCount: number;
  createdAt: string;
  /** Null: until revoked or the chat is deleted. */
  expiresAt: string | null;
}

/** `createShare`'s answer: the link holds the token, which is shown only this once. */
export interface CreatedShare {
  share: Share;
  url: string;
}

/** A shared chat as `GET /shared/:token` shows it: text, and tool calls by name only. */
export interface SharedChat {
  share: { title: string; createdAt: string; expiresAt: string | null };
  messages: Array<{
    id: string;
    role: MessageRole;
    content: string;
    parts: Array<{ type: 'text'; text: string } | { type: 'tool'; toolName: string }>;
    createdAt: string;
  }>;
}

type Options = { signal?: AbortSignal | undefined };
const signalOf = ({ signal }: Options) => (signal ? { signal } : {});
const feedbackPath = (chatId: string, messageId: string) =>
  `/chats/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}/feedback`;

/** The route client's feedback and share methods over one requester. */
export function feedbackShareRoutes(request: Requester) {
  return {
    async setFeedback(chatId: string, messageId: string, input: { rating: FeedbackRating; comment?: string }, options: Options = {}): Promise<Feedback> {
      const res = await request('PUT', feedbackPath(chatId, messageId), { body: input, ...signalOf(options) });
      return (await readJson<{ feedback: Feedback }>(res, 'PUT /chats/:id/messages/:mid/feedback')).feedback;
    },
    async deleteFeedback(chatId: string, messageId: string, options: Options = {}): Promise<{ chatId: string; messageId: string }> {
      const res = await request('DELETE', feedbackPath(chatId, messageId), signalOf(options));
      return (await readJson<{ deleted: { chatId: string; messageId: string } }>(res, 'DELETE /chats/:id/messages/:mid/feedback')).deleted;
    },
    async createShare(chatId: string, input: { expiresInDays?: number } = {}, options: Options = {}): Promise<CreatedShare> {
      const res = await request('POST', `/chats/${encodeURIComponent(chatId)}/shares`, { body: input, ...signalOf(options) });
      return readJson<CreatedShare>(res, 'POST /chats/:id/shares');
    },
    async revokeShare(shareId: string, options: Options = {}): Promise<{ revoked: true }> {
      const res = await request('DELETE', `/shares/${encodeURIComponent(shareId)}`, signalOf(options));
      return readJson<{ revoked: true }>(res, 'DELETE /shares/:shareId');
    },
    /** `GET /shared/:token`: needs no token of the caller (none is sent when `getToken` gives none). */
    async getShared(token: string, options: Options = {}): Promise<SharedChat> {
      const res = await request('GET', `/shared/${encodeURIComponent(token)}`, signalOf(options));
      return readJson<SharedChat>(res, 'GET /shared/:token');
    },
  };
}

export type FeedbackShareRoutes = ReturnType<typeof feedbackShareRoutes>;
