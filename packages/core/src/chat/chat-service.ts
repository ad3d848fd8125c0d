import { ChatwireError, type Caller, type QueryPage, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import { createCompactionConfig, createModelSummarizer } from '../compaction/index.js';
import type { CompactionConfig, Summarizer } from '../compaction/compaction-types.js';
import type { ModelRegistry } from '../models/index.js';
import { createToolCatalog, type ToolCatalogOptions } from '../tools/index.js';
import type { ToolCatalog } from '../tools/tool-types.js';
import { loadChatMessages } from '../turn/load-history.js';
import { runTurn } from '../turn/run-turn.js';
import type { ErrorReporter, StartedTurn, TurnOptions } from '../turn/turn-types.js';
import {
  AI_CHATS,
  AI_MESSAGES,
  AI_TURNS,
  CHAT_COLLECTIONS,
  type Chat,
  type ChatData,
  type MessageData,
} from './chat-collections.js';
import {
  DEFAULT_TITLE,
  isRecordId,
  parseCreateChatInput,
  parseListChatsInput,
  parseRenameChatInput,
  parseTurnInput,
} from './chat-inputs.js';

export interface ChatServiceOptions {
  store: RecordStore;
  models: ModelRegistry;
  /** A catalog, or options for `createToolCatalog` (default: all eight built-in tools). */
  tools?: ToolCatalog | ToolCatalogOptions;
  /** Overrides of the compaction defaults (spec 8.2). Invalid values throw at construction. */
  compaction?: Partial<CompactionConfig>;
  /** Summarizer model: an allow-listed id, `false` to never summarize, default the cheapest configured. */
  summarizerModelId?: string | false;
  /** A summarizer of your own; replaces `summarizerModelId`. */
  summarizer?: Summarizer;
  /** System prompt sent with every turn. */
  system?: string;
  /** Provider retries for retryable errors (AI SDK default 2). */
  maxRetries?: number;
  /** Lease time of a chat's running turn; renewed while it streams, expires after a crash. */
  turnLeaseTtlMs?: number;
  /** Every error the service swallows (provider failures, persistence failures...) is reported here. */
  onError?: ErrorReporter;
}

export interface ChatService {
  readonly store: RecordStore;
  createChat(caller: Caller, input?: unknown): Promise<Chat>;
  listChats(caller: Caller, query?: { limit?: string | null; cursor?: string | null }): Promise<{ chats: Chat[]; nextCursor: string | null }>;
  getChat(caller: Caller, chatId: string): Promise<{ chat: Chat; messages: RecordEnvelope<MessageData>[] }>;
  renameChat(caller: Caller, chatId: string, input: unknown): Promise<Chat>;
  deleteChat(caller: Caller, chatId: string): Promise<{ chatId: string; messages: number }>;
  /** Validates, checks ownership, takes the chat's lease, rejects a stored userMessageId, then streams. */
  streamTurn(caller: Caller, input: unknown, options?: TurnOptions): Promise<StartedTurn>;
}

const CHAT_NOT_FOUND = 'Chat not found';

function toChat(record: RecordEnvelope<ChatData>): Chat {
  return {
    recordId: record.recordId,
    userId: record.data.userId,
    title: record.data.title,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export function createChatService(options: ChatServiceOptions): ChatService {
  const { store, models } = options;
  for (const collection of CHAT_COLLECTIONS) store.register(collection);
  const report: ErrorReporter = options.onError ?? (() => undefined);
  const onError: ErrorReporter = (error, context) => {
    try {
      report(error, context);
    } catch {
      // A throwing onError must not break a turn (nor leave its chat's lease held).
    }
  };
  const compaction = createCompactionConfig(options.compaction);
  const tools = isCatalog(options.tools)
    ? options.tools
    : createToolCatalog({
        store,
        toolResultCap: Math.max(1_000, compaction.toolResultCap),
        onError: (error) => onError(error, { stage: 'tool' }),
        ...options.tools,
      });
  const leaseTtlMs = options.turnLeaseTtlMs ?? 60_000;

  /** 404 for a chat that does not exist and for another user's chat alike. */
  async function ownedChat(caller: Caller, chatId: string): Promise<RecordEnvelope<ChatData>> {
    const chat = isRecordId(chatId) ? await store.asCaller(caller).find<ChatData>(AI_CHATS, chatId) : null;
    if (!chat) throw new ChatwireError('NOT_FOUND', CHAT_NOT_FOUND);
    return chat;
  }

  function summarizerFor(authToken: string | undefined): Summarizer | null {
    if (options.summarizer) return options.summarizer;
    if (options.summarizerModelId === false) return null;
    try {
      const id = options.summarizerModelId ?? models.summarizerModelId();
      if (!id) return null;
      const { modelId } = models.resolve(id);
      return createModelSummarizer(models.languageModel(modelId, authToken ? { authToken } : {}));
    } catch (error) {
      onError(error, { stage: 'compaction' });
      return null;
    }
  }

  return {
    store,

    async createChat(caller, input) {
      const { title } = parseCreateChatInput(input);
      const record = await store
        .asServer()
        .create<ChatData>(AI_CHATS, { userId: caller.userId, title: title ?? DEFAULT_TITLE }, { recordId: crypto.randomUUID() });
      return toChat(record);
    },

    async listChats(caller, query = {}) {
      const { limit, cursor } = parseListChatsInput(query);
      const page: QueryPage<ChatData> = await store.asCaller(caller).query<ChatData>(AI_CHATS, {
        orderBy: { field: 'createdAt', direction: 'desc' },
        limit: limit ?? 20,
        ...(cursor ? { cursor } : {}),
      });
      return { chats: page.records.map(toChat), nextCursor: page.nextCursor };
    },

    async getChat(caller, chatId) {
      const chat = await ownedChat(caller, chatId);
      return { chat: toChat(chat), messages: await loadChatMessages(store.asCaller(caller), chatId) };
    },

    async renameChat(caller, chatId, input) {
      const { title } = parseRenameChatInput(input);
      await ownedChat(caller, chatId);
      return toChat(await store.asCaller(caller).update<ChatData>(AI_CHATS, chatId, { title }));
    },

    async deleteChat(caller, chatId) {
      await ownedChat(caller, chatId);
      const messages = await store.asServer().transaction(async (tx) => {
        // The chat row first: in SQL drivers that waits for a turn being saved (it holds the row), so the
        // messages deleted next include that turn's.
        await tx.delete(AI_CHATS, chatId);
        const count = await tx.deleteWhere(AI_MESSAGES, { chatId });
        await tx.deleteWhere(AI_TURNS, { chatId });
        return count;
      });
      return { chatId, messages };
    },

    async streamTurn(caller, body, turnOptions = {}) {
      const input = parseTurnInput(body);
      const { modelId, provider } = models.resolve(input.modelId);
      const authToken = turnOptions.authToken;
      const model = models.languageModel(modelId, authToken ? { authToken } : {});
      await ownedChat(caller, input.chatId);

      const lease = await store.leases.acquire(`chat:${input.chatId}`, { ttlMs: leaseTtlMs });
      if (!lease) throw new ChatwireError('CHAT_BUSY', 'A turn of this chat is still streaming; retry when it has finished');
      try {
        if (await store.asServer().find(AI_MESSAGES, input.userMessageId)) {
          throw new ChatwireError('DUPLICATE_MESSAGE', `Message '${input.userMessageId}' is already stored`);
        }
      } catch (error) {
        await lease.release();
        throw error;
      }

      const assistantMessageId = crypto.randomUUID();
      const stream = runTurn({
        store,
        caller,
        chatId: input.chatId,
        userMessageId: input.userMessageId,
        assistantMessageId,
        content: input.content,
        modelId,
        provider,
        model,
        tools,
        compaction,
        summarize: summarizerFor(authToken),
        system: options.system,
        maxRetries: options.maxRetries ?? 2,
        lease,
        leaseRenewMs: Math.max(1_000, Math.floor(leaseTtlMs / 3)),
        signal: turnOptions.signal,
        onError,
      });
      return { assistantMessageId, modelId, stream };
    },
  };
}

function isCatalog(value: ChatServiceOptions['tools']): value is ToolCatalog {
  return typeof value === 'object' && value !== null && typeof (value as ToolCatalog).forTurn === 'function';
}
