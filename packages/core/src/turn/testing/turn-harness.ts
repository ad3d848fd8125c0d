import type { LanguageModel, ToolSet } from 'ai';
import { createRecordStore, type Caller, type RecordAccess, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import { createMemoryDriver, type MemoryDriver } from '@chatwire/storage/memory';
import { AI_CHATS, AI_MESSAGES, AI_TURNS, CHAT_COLLECTIONS, type MessageData } from '../../records/chat-collections.js';
import { toWireMessage, userMessageRecordId } from '../../records/message-record-id.js';
import type { TurnInput } from '../turn-input.js';
import { DEFAULT_COMPACTION_CONFIG } from '../../compaction/index.js';
import type { ConversationSummary } from '../../compaction/compaction-types.js';
import { createMemoryTurnHub, type MemoryTurnHub } from '../../hub/index.js';
import { admitTurn } from '../admit-turn.js';
import type { Turn } from '../turn.js';
import type { TurnEnding } from '../turn-ending.js';
import type { TurnModel, TurnRuntime } from '../turn-runtime.js';
import type { ErrorContext } from '../turn-types.js';
import { decodeSse, readBytes, type DecodedSse } from './sse.js';

export const ALICE: Caller = { userId: 'alice', role: 'user' };
export const BOB: Caller = { userId: 'bob', role: 'user' };

export interface HarnessOptions extends Partial<Omit<TurnRuntime, 'tools'>> {
  /** The tools every turn is offered (default none). */
  tools?: ToolSet;
}

export interface SeedMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  userId?: string;
}

export interface TurnHarness {
  store: RecordStore;
  driver: MemoryDriver;
  server: RecordAccess;
  hub: MemoryTurnHub;
  runtime: TurnRuntime;
  /** Everything `runtime.report` received. */
  errors: Array<{ error: unknown; context: ErrorContext }>;
  /** Moves the store's clock forward (leases expire, timestamps move) without waiting or faking timers. */
  advanceStoreClock(ms: number): void;
  createChat(owner?: Caller, title?: string, id?: string): Promise<string>;
  /** Stores messages in order, as earlier turns would have (user rows under their owner-scoped recordId). */
  seed(chatId: string, messages: readonly SeedMessage[], owner?: Caller): Promise<void>;
  /** Stores a turn row (recordId = its assistant message id), optionally with a compaction summary. */
  seedTurn(chatId: string, assistantMessageId: string, userMessageId: string, summary?: ConversationSummary): Promise<void>;
  /** Rows of a collection (server view, insertion order), optionally of one chat. */
  rows<T extends Record<string, unknown> = Record<string, unknown>>(collection: string, chatId?: string): Promise<RecordEnvelope<T>[]>;
  /** A chat's messages as the routes return them (recordId: the id the client knows). */
  messages(chatId: string): Promise<RecordEnvelope<MessageData>[]>;
  turnModel(model: LanguageModel): TurnModel;
  /** `admitTurn` for a caller (default alice) with a submit by default. */
  admit(input: Partial<TurnInput> & { chatId: string }, model: LanguageModel, caller?: Caller): Promise<Turn>;
  /** Runs an admitted turn while reading its response; resolves with the ending and the decoded body. */
  run(turn: Turn): Promise<{ ending: TurnEnding; body: DecodedSse; bytes: Uint8Array }>;
}

/** A turn observer that observes nothing (the runtime's default). */
const OBSERVE_NOTHING = {
  prepare: <T>(run: () => Promise<T>) => run(),
  stepStarted: () => undefined,
  stepFinished: () => undefined,
  toolStarted: () => undefined,
  toolFinished: () => undefined,
  save: <T>(run: () => Promise<T>) => run(),
  ended: () => undefined,
};

/** Runtime fields with a "nothing" default: no per-user limits, no telemetry. */
const OPTIONAL_RUNTIME = { limits: null, observe: () => OBSERVE_NOTHING, aiSdkTelemetry: null };

/**
 * A turn runtime over a memory store (chat collections registered) and an in-process hub, with small
 * defaults for tests: no tools, no summarizer, no provider retries, every reported error recorded.
 */
export function turnHarness(options: HarnessOptions = {}): TurnHarness {
  let skew = 0;
  const driver = createMemoryDriver({ now: () => Date.now() + skew });
  const store = createRecordStore({ driver, collections: CHAT_COLLECTIONS });
  const server = store.asServer();
  const hub = createMemoryTurnHub();
  const errors: TurnHarness['errors'] = [];
  const { tools = {}, ...overrides } = options;
  const runtime: TurnRuntime = {
    ...OPTIONAL_RUNTIME,
    store,
    tools: { names: Object.keys(tools), forTurn: () => tools },
    compaction: DEFAULT_COMPACTION_CONFIG,
    system: undefined,
    maxRetries: 0,
    leaseTtlMs: 15_000,
    firstByteTimeoutMs: 60_000,
    idleTimeoutMs: 30_000,
    onDisconnect: 'abort',
    createChatOnFirstTurn: false,
    hub,
    bus: null,
    summarizer: () => null,
    report: (error, context) => errors.push({ error, context }),
    ...overrides,
  };
  const turnModel = (model: LanguageModel): TurnModel => ({ modelId: 'test-model', provider: 'test', model });

  const rows: TurnHarness['rows'] = async <T extends Record<string, unknown>>(collection: string, chatId?: string) => {
    const out: RecordEnvelope<T>[] = [];
    let cursor: string | undefined;
    do {
      const page = await server.query<T>(collection, {
        ...(chatId ? { filter: { chatId } } : {}),
        orderBy: { field: 'createdAt', direction: 'asc' },
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      out.push(...page.records);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  };

  return {
    store,
    driver,
    server,
    hub,
    runtime,
    errors,
    advanceStoreClock: (ms) => (skew += ms),
    async createChat(owner = ALICE, title = 'A chat', id = crypto.randomUUID()) {
      await server.create(AI_CHATS, { userId: owner.userId, title }, { recordId: id });
      return id;
    },
    async seed(chatId, messages, owner = ALICE) {
      for (const m of messages) {
        const parts = [{ type: 'text', text: m.content }];
        const userId = m.userId ?? owner.userId;
        const data = { chatId, userId, role: m.role, content: m.content, parts };
        if (m.role === 'assistant') await server.create(AI_MESSAGES, { ...data, status: 'complete' }, { recordId: m.id });
        else {
          // Where a submit stores it: under the client's id, unless another row already has that recordId.
          const recordId = (await server.find(AI_MESSAGES, m.id)) ? userMessageRecordId(userId, m.id) : m.id;
          await server.create(AI_MESSAGES, { ...data, messageId: m.id }, { recordId });
        }
      }
    },
    async seedTurn(chatId, assistantMessageId, userMessageId, summary) {
      await server.create(
        AI_TURNS,
        {
          chatId,
          userId: ALICE.userId,
          userMessageId,
          assistantMessageId,
          trigger: 'submit',
          modelId: 'test-model',
          provider: 'test',
          finishReason: 'stop',
          usage: {},
          steps: 1,
          toolCalls: [],
          durationMs: 1,
          ...(summary ? { summary } : {}),
        },
        { recordId: assistantMessageId },
      );
    },
    rows,
    messages: async (chatId) => (await rows<MessageData>(AI_MESSAGES, chatId)).map(toWireMessage),
    turnModel,
    admit(input, model, caller = ALICE) {
      const full: TurnInput = { trigger: 'submit', ...input };
      return admitTurn(runtime, { caller, input: full, model: turnModel(model), authToken: undefined });
    },
    async run(turn) {
      const [ending, bytes] = await Promise.all([turn.run(), readBytes(turn.output.response)]);
      return { ending, bytes, body: decodeSse(bytes) };
    },
  };
}
