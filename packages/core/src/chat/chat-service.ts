import type { LanguageModel, TelemetrySettings } from 'ai';
import { ChatwireError, type Caller, type QueryPage, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import { createCompactionConfig, createModelSummarizer } from '../compaction/index.js';
import type { CompactionConfig, Summarizer } from '../compaction/compaction-types.js';
import type { ModelRegistry } from '../models/index.js';
import { checkAppModel } from '../models/build-served-models.js';
import type { AppLanguageModel } from '../model-specs/app-language-model.js';
import { createToolCatalog, type ToolCatalogOptions } from '../tools/index.js';
import type { ToolCatalog } from '../tools/tool-types.js';
import { listOfferedTools, type OfferedTools } from '../tools/list-offered-tools.js';
import { createMemoryTurnHub } from '../hub/create-memory-turn-hub.js';
import { createNotificationTurnBus } from '../hub/create-notification-turn-bus.js';
import type { TurnBus, TurnHub } from '../hub/turn-hub.js';
import { createTurnManager } from '../turn/create-turn-manager.js';
import { loadChatMessages } from '../prompt/load-history.js';
import { toWireMessage } from '../records/message-record-id.js';
import { readActivePath, type BranchedMessage } from '../branches/load-chat-tree.js';
import { switchBranch } from '../branches/switch-branch.js';
import type { TurnRuntime } from '../turn/turn-runtime.js';
import type { TurnLimits } from '../turn/turn-limits.js';
import { observeNothing, type TurnObservers } from '../turn/turn-observer.js';
import type { ErrorReporter, ResumedTurn, StartedTurn, TurnOptions } from '../turn/turn-types.js';
import { parseUsageQuery, type UsageQuery } from '../limits/parse-usage-query.js';
import { readUsage, type UsageRow } from '../limits/read-usage.js';
import {
  AI_CHATS,
  AI_MESSAGES,
  AI_TURNS,
  CHAT_COLLECTIONS,
  type Chat,
  type ChatData,
  type MessageData,
} from '../records/chat-collections.js';
import {
  DEFAULT_TITLE,
  isRecordId,
  parseCreateChatInput,
  parseListChatsInput,
  parseRenameChatInput,
  parseTurnInput,
} from './chat-inputs.js';
import { createTitleGenerator } from './generate-title.js';
import { attachFeedback } from '../feedback/attach-feedback.js';
import { createFeedbackService } from '../feedback/create-feedback-service.js';
import type { Feedback, FeedbackEvent, MessageFeedback } from '../feedback/feedback-types.js';
import { AI_FEEDBACK } from '../records/feedback-collection.js';
import { AI_SHARES } from '../records/share-collection.js';
import { createShareService, type Share, type SharedChat } from '../shares/create-share-service.js';
import { createAttachmentService, type AttachmentOptions, type AttachmentRow, type AttachmentService } from '../attachments/create-attachment-service.js';
import { deleteChatAttachments } from '../attachments/delete-chat-attachments.js';
import { withContentUrls } from '../attachments/with-content-urls.js';
import type { ModelInput } from '../attachments/attachment-media-types.js';

export interface ChatServiceOptions {
  store: RecordStore;
  models: ModelRegistry;
  /** A catalog, or options for `createToolCatalog` (default: all eight built-in tools). */
  tools?: ToolCatalog | ToolCatalogOptions;
  /**
   * Tools that ask the user before each call runs (env `CHATWIRE_APPROVE_TOOLS`), by catalog, wire or MCP
   * name: the catalog's `approveTools` when `tools` does not set one. Default none.
   */
  approveTools?: readonly string[];
  /** Overrides of the compaction defaults. Invalid values throw at construction. */
  compaction?: Partial<CompactionConfig>;
  /** Summarizer model: an allow-listed id, `false` to never summarize, default the cheapest configured. */
  summarizerModelId?: string | false;
  /** A summarizer of your own; replaces `summarizerModelId`. */
  summarizer?: Summarizer;
  /** System prompt sent with every turn. */
  system?: string;
  /** Provider retries for retryable errors (default 2). */
  maxRetries?: number;
  /** Lease time of a chat's running turn: renewed while it streams, free this long after a crash (default 15 s). */
  turnLeaseTtlMs?: number;
  /** No first chunk from the provider within this long ends the turn with an error (default 60 s). */
  providerFirstByteTimeoutMs?: number;
  /** No chunk from the provider for this long, once it answers, ends the turn with an error (default 30 s). */
  providerIdleTimeoutMs?: number;
  /** `abort` (default): a client disconnect aborts the model call, nothing is stored. `continue`: the turn runs on and is stored. */
  onDisconnect?: 'abort' | 'continue';
  /** A submit to a chat id nobody has creates that chat for the caller (default false). */
  createChatOnFirstTurn?: boolean;
  /**
   * `linear` (default): edit and regenerate replace what follows. `tree`: they add a sibling and keep every
   * earlier version; reads return the active path with each message's `branch`, and `switchBranch` moves it.
   */
  history?: 'linear' | 'tree';
  /**
   * Title a chat after its first completed turn, off the turn's path, unless the user titled it (default false).
   * A title model that fails leaves the title as it was and is reported through `onError`.
   */
  autoTitles?: boolean;
  /** Title model: an allow-listed id or a model (default the summarizer's choice; none configured: the first message). */
  titleModel?: string | AppLanguageModel;
  /** Where running turns' output is kept for resume (default: this process's memory). */
  hub?: TurnHub;
  /** Stop requests across processes (default: the store's notifications, when its driver has them). */
  bus?: TurnBus;
  /** Per-user limits checked before each turn (turns per minute, tokens per day...). */
  limits?: TurnLimits;
  /** Observers of each turn's phases, e.g. OpenTelemetry spans (default: none, at no cost). */
  observe?: TurnObservers;
  /** Every error the service swallows (provider failures, persistence failures...) is reported here. */
  onError?: ErrorReporter;
  /** Told after each rating is stored or removed (after commit; a throwing hook goes to `onError`). */
  onFeedback?: (event: FeedbackEvent) => void | Promise<void>;
  /** Read-only share links (default off: the share methods answer NOT_FOUND). `readsPerMinute` per client (default 60). */
  sharing?: boolean | { readsPerMinute?: number };
  /** Uploads: the blob store (default memory), the limits and the content-URL key. */
  attachments?: AttachmentOptions;
}

export interface ChatService {
  readonly store: RecordStore;
  /** Uploads, their bytes and signed content URLs (the attachment routes). */
  readonly attachments: AttachmentService;
  createChat(caller: Caller, input?: unknown): Promise<Chat>;
  listChats(caller: Caller, query?: { limit?: string | null; cursor?: string | null }): Promise<{ chats: Chat[]; nextCursor: string | null }>;
  /** The chat and its messages in order, each with the id its client knows as `recordId` (`userMessageId`, `X-Asst-Id`). */
  getChat(caller: Caller, chatId: string): Promise<{ chat: Chat; messages: Array<RecordEnvelope<MessageData> & { feedback?: MessageFeedback }> }>;
  renameChat(caller: Caller, chatId: string, input: unknown): Promise<Chat>;
  deleteChat(caller: Caller, chatId: string): Promise<{ chatId: string; messages: number }>;
  /** Tree history: makes the newest leaf under `{ messageId }` active; the chat and its new active path. */
  switchBranch(caller: Caller, chatId: string, input: unknown): Promise<{ chat: Chat; messages: Array<BranchedMessage & { feedback?: MessageFeedback }> }>;
  /** Validates, checks ownership, takes the chat's lease, checks the trigger's message, then streams. */
  streamTurn(caller: Caller, input: unknown, options?: TurnOptions): Promise<StartedTurn>;
  /** Stops the chat's running turn, keeping its partial answer; answers once it is stored. */
  stopTurn(caller: Caller, chatId: string): Promise<{ stopped: boolean }>;
  /** The models this caller may choose from. */
  listModels(caller: Caller): Promise<ModelInfo[]>;
  /** The chat's running turn from its first byte, or null when none runs. */
  resumeTurn(caller: Caller, chatId: string, options?: { signal?: AbortSignal }): Promise<ResumedTurn | null>;
  /** The caller's own token sums per UTC day and model (`from`/`to` as YYYY-MM-DD, default the last 30 days). */
  usage(caller: Caller, query?: UsageQuery): Promise<{ usage: UsageRow[] }>;
  /** Rates an assistant message of the caller's chat (`{ rating: 'up' | 'down', comment? }`); a second rating replaces the first. */
  setFeedback(caller: Caller, chatId: string, messageId: string, input: unknown): Promise<Feedback>;
  deleteFeedback(caller: Caller, chatId: string, messageId: string): Promise<{ chatId: string; messageId: string }>;
  /** Whether share links are on (`sharing`). */
  readonly sharing: boolean;
  /** A read-only link to a frozen copy of the caller's chat; `token` is shown this once. */
  createShare(caller: Caller, chatId: string, input?: unknown): Promise<{ share: Share; token: string }>;
  revokeShare(caller: Caller, shareId: string): Promise<void>;
  /** A shared copy, without auth; `clientKey` (the client's address) is rate-limited. */
  readShare(token: string, clientKey: string): Promise<SharedChat>;
  /** The tools the caller's turns offer now (MCP servers' included), each with its origin. */
  listTools(caller: Caller): Promise<OfferedTools>;
}

/** One entry of `GET /models`. */
export interface ModelInfo {
  id: string;
  provider: string;
  label: string;
  /** What the model reads: `text`, `image`, `pdf`, `text-file`. */
  inputs: ModelInput[];
}

const CHAT_NOT_FOUND = 'Chat not found';
const DEFAULT_LEASE_TTL_MS = 15_000;

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
  // An app's own title model (any AI SDK major) runs as a v2 model, like the allow-listed ones.
  const appTitleModel =
    options.titleModel !== undefined && typeof options.titleModel !== 'string' ? (checkAppModel('titleModel', options.titleModel) as LanguageModel) : null;
  const compaction = createCompactionConfig(options.compaction);
  if (isCatalog(options.tools) && options.approveTools !== undefined && options.approveTools.length > 0) {
    throw new ChatwireError('CONFIGURATION', 'approveTools applies to tool options, not to a built ToolCatalog: give createToolCatalog its approveTools');
  }
  const tools = isCatalog(options.tools)
    ? options.tools
    : createToolCatalog({
        store,
        toolResultCap: Math.max(1_000, compaction.toolResultCap),
        onError: (error) => onError(error, { stage: 'tool' }),
        ...options.tools,
        approveTools: options.tools?.approveTools ?? options.approveTools,
      });
  const notifications = store.driver.notifications;
  const attachments = createAttachmentService(store, options.attachments, (error) => onError(error, { stage: 'internal' }));
  const runtime: TurnRuntime = {
    store,
    attachments,
    tools,
    compaction,
    system: options.system,
    maxRetries: options.maxRetries ?? 2,
    leaseTtlMs: options.turnLeaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    firstByteTimeoutMs: options.providerFirstByteTimeoutMs ?? 60_000,
    idleTimeoutMs: options.providerIdleTimeoutMs ?? 30_000,
    onDisconnect: options.onDisconnect ?? 'abort',
    createChatOnFirstTurn: options.createChatOnFirstTurn ?? false,
    historyMode: options.history ?? 'linear',
    hub: options.hub ?? createMemoryTurnHub(),
    bus: options.bus ?? (notifications ? createNotificationTurnBus(notifications) : null),
    summarizer: summarizerFor,
    limits: options.limits ?? null,
    observe: options.observe ?? observeNothing,
    // Observers that want the SDK's spans too (createOtelObservers({ aiSdkTelemetry: true })) carry its settings.
    aiSdkTelemetry: (options.observe as { aiSdkTelemetry?: TelemetrySettings | null } | undefined)?.aiSdkTelemetry ?? null,
    titles: options.autoTitles ? createTitleGenerator({ store, modelFor: titleModelFor, report: onError }) : null,
    report: onError,
  };
  const turns = createTurnManager(runtime);
  const recordFeedback = (options.observe as { recordFeedback?: (event: FeedbackEvent) => void } | undefined)?.recordFeedback;
  const feedback = createFeedbackService({
    store,
    onFeedback: options.onFeedback,
    recordSpan: recordFeedback,
    report: (error) => onError(error, { stage: 'internal' }),
  });
  const sharing = options.sharing ?? false;
  const shares = sharing
    ? createShareService({ store, ...(typeof sharing === 'object' && sharing.readsPerMinute !== undefined ? { readsPerMinute: sharing.readsPerMinute } : {}) })
    : null;
  const sharingOff = (): ChatwireError => new ChatwireError('NOT_FOUND', 'Share links are off');

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

  function titleModelFor(authToken: string | undefined): LanguageModel | null {
    if (appTitleModel !== null) return appTitleModel;
    const id = options.titleModel ?? models.summarizerModelId();
    if (!id) return null;
    const { modelId } = models.resolve(id);
    return models.languageModel(modelId, authToken ? { authToken } : {});
  }

  return {
    store,
    attachments,

    async createChat(caller, input) {
      const { title } = parseCreateChatInput(input);
      const record = await store
        .asServer()
        .create<ChatData>(
          AI_CHATS,
          { userId: caller.userId, title: title ?? DEFAULT_TITLE, titleSource: title ? 'user' : 'default' },
          { recordId: crypto.randomUUID() },
        );
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
      const access = store.asCaller(caller);
      const messages =
        runtime.historyMode === 'tree' ? await readActivePath(access, chatId, chat.data.activeLeafId) : (await loadChatMessages(access, chatId)).map(toWireMessage);
      const signed = messages.map((message) => withContentUrls(message, attachments.urlFor));
      return { chat: toChat(chat), messages: await attachFeedback(access, chatId, signed) };
    },

    async renameChat(caller, chatId, input) {
      const { title } = parseRenameChatInput(input);
      await ownedChat(caller, chatId);
      return toChat(await store.asCaller(caller).update<ChatData>(AI_CHATS, chatId, { title, titleSource: 'user' }));
    },

    async deleteChat(caller, chatId) {
      await ownedChat(caller, chatId);
      let dropped: AttachmentRow[] = [];
      const messages = await store.asServer().transaction(async (tx) => {
        // The chat row first: in SQL drivers that waits for a turn being saved (it holds the row), so the
        // messages deleted next include that turn's.
        await tx.delete(AI_CHATS, chatId);
        const count = await tx.deleteWhere(AI_MESSAGES, { chatId });
        await tx.deleteWhere(AI_TURNS, { chatId });
        await tx.deleteWhere(AI_FEEDBACK, { chatId });
        await tx.deleteWhere(AI_SHARES, { chatId });
        dropped = await deleteChatAttachments(tx, chatId, attachments.blobs);
        return count;
      });
      await attachments.dropBlobs(dropped);
      return { chatId, messages };
    },

    async switchBranch(caller, chatId, input) {
      await ownedChat(caller, chatId);
      if (runtime.historyMode !== 'tree') throw new ChatwireError('NOT_FOUND', 'Branches are off (history: linear)');
      const switched = await switchBranch({ store, leaseTtlMs: runtime.leaseTtlMs, report: (error) => onError(error, { stage: 'lease', chatId, userId: caller.userId }) }, chatId, input);
      return { chat: toChat(switched.chat), messages: await attachFeedback(store.asCaller(caller), chatId, switched.messages) };
    },

    async streamTurn(caller, body, turnOptions = {}) {
      const input = parseTurnInput(body);
      const { modelId, provider } = models.resolve(input.modelId);
      const authToken = turnOptions.authToken;
      const model = models.languageModel(modelId, authToken ? { authToken } : {});
      const turn = await turns.start({ caller, input, model: { modelId, provider, model }, authToken }, turnOptions.signal);
      return { assistantMessageId: turn.id, modelId, stream: turn.output.response };
    },

    async listModels() {
      // Every caller may use every available model of the allow-list.
      return models
        .list()
        .filter((entry) => entry.available)
        .map((entry) => ({ id: entry.modelId, provider: entry.provider, label: entry.label, inputs: attachments.inputsFor(entry.modelId, entry.provider) }));
    },

    async stopTurn(caller, chatId) {
      await ownedChat(caller, chatId);
      return turns.stop(chatId);
    },

    async resumeTurn(caller, chatId, resumeOptions = {}) {
      await ownedChat(caller, chatId);
      const attached = await turns.attach(chatId, resumeOptions.signal);
      return attached && { assistantMessageId: attached.turnId, stream: attached.stream };
    },

    async usage(caller, query = {}) {
      return { usage: await readUsage(store, caller.userId, parseUsageQuery(query)) };
    },

    async setFeedback(caller, chatId, messageId, input) {
      await ownedChat(caller, chatId);
      return feedback.set(caller.userId, chatId, messageId, input);
    },

    async deleteFeedback(caller, chatId, messageId) {
      await ownedChat(caller, chatId);
      return feedback.remove(caller.userId, chatId, messageId);
    },

    sharing: shares !== null,

    async createShare(caller, chatId, input) {
      if (!shares) throw sharingOff();
      await ownedChat(caller, chatId);
      return shares.create(caller.userId, chatId, input);
    },

    async revokeShare(caller, shareId) {
      if (!shares) throw sharingOff();
      return shares.revoke(caller.userId, shareId);
    },

    async readShare(token, clientKey) {
      if (!shares) throw sharingOff();
      return shares.read(token, clientKey);
    },

    listTools(caller) {
      return listOfferedTools(tools, caller, store.asCaller(caller), (error) => onError(error, { stage: 'tool', userId: caller.userId }));
    },
  };
}

function isCatalog(value: ChatServiceOptions['tools']): value is ToolCatalog {
  return typeof value === 'object' && value !== null && typeof (value as ToolCatalog).forTurn === 'function';
}
