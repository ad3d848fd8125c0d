import type { Caller, RecordEnvelope, RecordStore } from '@chatwire/storage';
import type { CompactionConfig, Summarizer } from '../compaction/compaction-types.js';
import type { ModelRegistry } from '../models/index.js';
import type { AppLanguageModel } from '../model-specs/app-language-model.js';
import type { ToolCatalogOptions } from '../tools/index.js';
import type { ToolCatalog } from '../tools/tool-types.js';
import type { OfferedTools } from '../tools/list-offered-tools.js';
import type { TurnBus, TurnHub } from '../hub/turn-hub.js';
import type { BranchedMessage } from '../branches/load-chat-tree.js';
import type { TurnLimits } from '../turn/turn-limits.js';
import type { TurnObservers } from '../turn/turn-observer.js';
import type { ErrorReporter, ResumedTurn, StartedTurn, TurnOptions } from '../turn/turn-types.js';
import type { UsageQuery } from '../limits/parse-usage-query.js';
import type { UsageRow } from '../limits/read-usage.js';
import type { Chat, MessageData } from '../records/chat-collections.js';
import type { Feedback, FeedbackEvent, MessageFeedback } from '../feedback/feedback-types.js';
import type { Share, SharedChat } from '../shares/create-share-service.js';
import type { AttachmentOptions, AttachmentService } from '../attachments/create-attachment-service.js';
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
