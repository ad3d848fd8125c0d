import { createRequester, readJson, type ConnectionOptions } from './create-requester.js';
import { createTurnStream, followSignal, type TurnStream } from './create-turn-stream.js';
import type { DecodeOptions } from './decode-chunks.js';
import { getRunningTurn, postTurn, type ApprovalAnswer, type TurnTrigger } from './post-turn.js';
import { randomUuid } from './random-uuid.js';
import type { ChatPage, ChatRecord, ChatWithMessages, DeleteResult } from './route-types.js';
import { searchChats, type SearchOptions, type SearchPage } from './search-chats.js';
import { feedbackShareRoutes, type FeedbackShareRoutes } from './feedback-share-routes.js';
import { attachmentRoutes, type AttachmentRoutes } from './attachment-routes.js';

export type ChatClientOptions = ConnectionOptions & DecodeOptions;

export interface CallOptions {
  signal?: AbortSignal;
}

export interface SendMessageInput {
  chatId: string;
  content: string;
  /** Must be in the server's allow-list (else 400 `MODEL_NOT_ALLOWED`); the server default when absent. */
  modelId?: string;
  /** The user row's id; defaults to `crypto.randomUUID()`. Reuse it to retry safely (409 `DUPLICATE_MESSAGE`). */
  userMessageId?: string;
  /** Aborts the request, including before the response headers arrive. */
  signal?: AbortSignal;
  /** Ids of `uploadAttachment`, in order (`content` may then be empty). */
  attachments?: string[];
}

/** A submitted message whose response headers arrived. */
export interface SentMessage extends TurnStream {
  userMessageId: string;
}

/**
 * `POST /chat` with any trigger. `submit` and `edit` need `userMessageId` and `content` (`edit`: a stored user
 * message of the chat and its new text); `regenerate` takes no `content` and an optional `userMessageId`
 * (the server's default: the chat's last user message); `approval` takes `approvals` and continues the chat's
 * last turn in the same assistant message.
 */
export interface StreamTurnInput {
  chatId: string;
  trigger: TurnTrigger;
  userMessageId?: string;
  content?: string;
  modelId?: string;
  /** `approval`: one answer for every tool call the chat's last turn waits on. */
  approvals?: ApprovalAnswer[];
  /** `submit`: ids of `uploadAttachment`, in order. */
  attachments?: string[];
  signal?: AbortSignal;
}

/** A turn of any trigger whose response headers arrived; `userMessageId` as sent (absent for a default regenerate). */
export interface StartedTurn extends TurnStream {
  userMessageId: string | undefined;
}

/**
 * Also: `setFeedback` / `deleteFeedback` (a rating of an answer), `createShare` / `revokeShare` (read-only
 * links, when the server has sharing on) and `getShared` (a shared chat, no auth needed).
 */
export interface ChatClient extends FeedbackShareRoutes, AttachmentRoutes {
  createChat(input?: { title?: string }, options?: CallOptions): Promise<ChatRecord>;
  listChats(query?: { limit?: number; cursor?: string | null }, options?: CallOptions): Promise<ChatPage>;
  getChat(chatId: string, options?: CallOptions): Promise<ChatWithMessages>;
  renameChat(chatId: string, title: string, options?: CallOptions): Promise<ChatRecord>;
  deleteChat(chatId: string, options?: CallOptions): Promise<DeleteResult>;
  /** `POST /chats/:id/active` (tree history): the newest leaf under `messageId` becomes active; the chat and its new path. */
  switchBranch(chatId: string, messageId: string, options?: CallOptions): Promise<ChatWithMessages>;
  /** A `submit` turn: `streamTurn({ trigger: 'submit' })` with a generated `userMessageId`. */
  sendMessage(input: SendMessageInput): Promise<SentMessage>;
  /** `POST /chat` with `trigger` `submit`, `edit`, `regenerate` or `approval`. */
  streamTurn(input: StreamTurnInput): Promise<StartedTurn>;
  /**
   * `POST /chats/:id/stop`: stops the chat's running turn and resolves once its partial answer is stored
   * (`{ stopped: true }`; the assistant row has `status: 'stopped'`), or `{ stopped: false }` when nothing runs.
   */
  stopTurn(chatId: string, options?: CallOptions): Promise<{ stopped: boolean }>;
  /** `GET /chats/:id/stream`: the chat's running turn from its first chunk, then live; `null` when nothing runs. */
  resumeTurn(chatId: string, options?: CallOptions): Promise<TurnStream | null>;
  /** `GET /search`: the caller's messages and chat titles matching `q` (501 from a store without full-text search). */
  search(q: string, options?: SearchOptions): Promise<SearchPage>;
}

/** The typed client of the chat routes. Every failure is a `ChatwireClientError`; aborts reject as `AbortError`. */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const request = createRequester(options);
  const decode: DecodeOptions = options.onSkippedLine ? { onSkippedLine: options.onSkippedLine } : {};
  const chatPath = (chatId: string) => `/chats/${encodeURIComponent(chatId)}`;
  const json = async <T>(what: string, res: Promise<Response>): Promise<T> => readJson<T>(await res, what);
  const streamTurn = async ({ signal, ...turn }: StreamTurnInput): Promise<StartedTurn> => {
    const controller = followSignal(signal);
    const open = await postTurn(request, turn, { signal: controller.signal });
    return Object.assign(createTurnStream(open, controller, decode), { userMessageId: turn.userMessageId });
  };

  return {
    async createChat(input = {}, { signal } = {}) {
      const body = input.title === undefined ? {} : { title: input.title };
      return (await json<{ chat: ChatRecord }>('POST /chats', request('POST', '/chats', { body, signal }))).chat;
    },
    async listChats(query = {}, { signal } = {}) {
      const params = new URLSearchParams();
      if (query.limit !== undefined) params.set('limit', String(query.limit));
      if (query.cursor) params.set('cursor', query.cursor);
      const qs = params.toString() ? `?${params.toString()}` : '';
      return json<ChatPage>('GET /chats', request('GET', `/chats${qs}`, { signal }));
    },
    getChat(chatId, { signal } = {}) {
      return json<ChatWithMessages>('GET /chats/:id', request('GET', chatPath(chatId), { signal }));
    },
    async renameChat(chatId, title, { signal } = {}) {
      const res = request('PATCH', chatPath(chatId), { body: { title }, signal });
      return (await json<{ chat: ChatRecord }>('PATCH /chats/:id', res)).chat;
    },
    async deleteChat(chatId, { signal } = {}) {
      const res = request('DELETE', chatPath(chatId), { signal });
      return (await json<{ deleted: DeleteResult }>('DELETE /chats/:id', res)).deleted;
    },
    switchBranch(chatId, messageId, { signal } = {}) {
      return json<ChatWithMessages>('POST /chats/:id/active', request('POST', `${chatPath(chatId)}/active`, { body: { messageId }, signal }));
    },
    async sendMessage({ chatId, content, modelId, userMessageId = randomUuid(), signal, attachments }) {
      const turn = { chatId, trigger: 'submit' as const, userMessageId, content, modelId, signal, ...(attachments?.length ? { attachments } : {}) };
      return (await streamTurn(turn)) as SentMessage;
    },
    streamTurn,
    async stopTurn(chatId, { signal } = {}) {
      return json<{ stopped: boolean }>('POST /chats/:id/stop', request('POST', `${chatPath(chatId)}/stop`, { signal }));
    },
    async resumeTurn(chatId, { signal } = {}) {
      const controller = followSignal(signal);
      const open = await getRunningTurn(request, chatId, { signal: controller.signal });
      return open && createTurnStream(open, controller, decode);
    },
    search: (q, searchOptions) => searchChats(request, q, searchOptions),
    ...feedbackShareRoutes(request),
    ...attachmentRoutes(request, options.baseUrl),
  };
}
