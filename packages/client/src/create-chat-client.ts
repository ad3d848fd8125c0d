import type { Action } from './action.js';
import { ChatwireClientError } from './chatwire-client-error.js';
import { createRequester, readJson, type ConnectionOptions } from './create-requester.js';
import { decodeActionBatches, decodeActions } from './decode-actions.js';
import { decodeChunks, type DecodeOptions } from './decode-chunks.js';
import { postTurn } from './post-turn.js';
import { randomUuid } from './random-uuid.js';
import type { ChatPage, ChatRecord, ChatWithMessages, DeleteResult } from './route-types.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

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
}

/** A turn whose response headers arrived. Iterate ONE of `actions`, `actionBatches`, `chunks` (the body is read once). */
export interface SentMessage {
  /** `X-Asst-Id`: the id the assistant row will be stored under. */
  assistantMessageId: string;
  userMessageId: string;
  /** Decoded actions; never throws (see `decodeActions`). */
  readonly actions: AsyncIterableIterator<Action>;
  /** The same actions, one array per network read: reduce a batch, render once. */
  readonly actionBatches: AsyncIterableIterator<Action[]>;
  /** The validated chunks, for `data-*`, `message-metadata` and the like; a failed read rejects. */
  readonly chunks: AsyncIterableIterator<UiMessageChunk>;
  /** Cancels the request: the server stops the model call; `actions` ends with `abort` (origin `client`). */
  abort(): void;
}

export interface ChatClient {
  createChat(input?: { title?: string }, options?: CallOptions): Promise<ChatRecord>;
  listChats(query?: { limit?: number; cursor?: string | null }, options?: CallOptions): Promise<ChatPage>;
  getChat(chatId: string, options?: CallOptions): Promise<ChatWithMessages>;
  renameChat(chatId: string, title: string, options?: CallOptions): Promise<ChatRecord>;
  deleteChat(chatId: string, options?: CallOptions): Promise<DeleteResult>;
  sendMessage(input: SendMessageInput): Promise<SentMessage>;
}

/** The typed client of the chat routes. Every failure is a `ChatwireClientError`; aborts reject as `AbortError`. */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const request = createRequester(options);
  const decode: DecodeOptions = options.onSkippedLine ? { onSkippedLine: options.onSkippedLine } : {};
  const chatPath = (chatId: string) => `/chats/${encodeURIComponent(chatId)}`;
  const json = async <T>(what: string, res: Promise<Response>): Promise<T> => readJson<T>(await res, what);

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
    async sendMessage({ chatId, content, modelId, userMessageId = randomUuid(), signal }) {
      const controller = new AbortController();
      if (signal) {
        if (signal.aborted) controller.abort(signal.reason);
        else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
      }
      const turn = { chatId, userMessageId, content, ...(modelId === undefined ? {} : { modelId }) };
      const { assistantMessageId, body } = await postTurn(request, turn, { signal: controller.signal });
      type View = 'actions' | 'actionBatches' | 'chunks';
      let used: View | undefined;
      const claim = (which: View) => {
        if (used !== undefined && used !== which) {
          throw new ChatwireClientError('BODY_CONSUMED', `sendMessage: the stream is already read through ${used}`, {
            status: 200,
          });
        }
        used = which;
      };
      const decodeWithSignal = { ...decode, signal: controller.signal };
      let actions: AsyncIterableIterator<Action> | undefined;
      let actionBatches: AsyncIterableIterator<Action[]> | undefined;
      let chunks: AsyncIterableIterator<UiMessageChunk> | undefined;
      return {
        assistantMessageId,
        userMessageId,
        get actions() {
          claim('actions');
          return (actions ??= decodeActions(body, decodeWithSignal));
        },
        get actionBatches() {
          claim('actionBatches');
          return (actionBatches ??= decodeActionBatches(body, decodeWithSignal));
        },
        get chunks() {
          claim('chunks');
          return (chunks ??= decodeChunks(body, decode));
        },
        abort: () => controller.abort(),
      };
    },
  };
}
