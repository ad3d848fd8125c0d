import type { LanguageModel, TelemetrySettings } from 'ai';
import type { RecordStore } from '@chatwire/storage';
import type { AttachmentService } from '../attachments/create-attachment-service.js';
import type { CompactionConfig, Summarizer } from '../compaction/compaction-types.js';
import type { TurnBus, TurnHub } from '../hub/turn-hub.js';
import type { ToolCatalog } from '../tools/tool-types.js';
import type { TurnLimits } from './turn-limits.js';
import type { TurnObservers } from './turn-observer.js';
import type { Turn } from './turn.js';
import type { TurnEnding } from './turn-ending.js';
import type { ErrorContext } from './turn-types.js';

/** What every turn of one chat service shares: built once, at `createChatService`. */
export interface TurnRuntime {
  store: RecordStore;
  /** Uploads: a turn's attachments are checked, stored with its user row and sent to the model as bytes. */
  attachments?: AttachmentService | undefined;
  tools: ToolCatalog;
  compaction: CompactionConfig;
  system: string | undefined;
  /** Provider retries for retryable errors. */
  maxRetries: number;
  /** A chat's lease: renewed while its turn runs, free this long after a crash. */
  leaseTtlMs: number;
  /** No first chunk from the provider for this long (per model call) fails the turn. */
  firstByteTimeoutMs: number;
  /** No chunk from the provider for this long, once it started answering, fails the turn. */
  idleTimeoutMs: number;
  /** What a client disconnect does to its turn. */
  onDisconnect: 'abort' | 'continue';
  /** A submit to an unknown chat id creates that chat for the caller. */
  createChatOnFirstTurn: boolean;
  /** `tree`: turns add branches (see `branches/`); `linear` or absent: edit and regenerate replace. */
  historyMode?: 'linear' | 'tree';
  /** The running turns' chunk logs (resume). */
  hub: TurnHub;
  /** Stop requests and turn endings across processes; null when the store covers one process only. */
  bus: TurnBus | null;
  /** The summarizer for a turn paid by `authToken` (null: never summarize). */
  summarizer(authToken: string | undefined): Summarizer | null;
  /** Per-user limits checked before a turn runs (null: none). */
  limits: TurnLimits | null;
  /** Observers of each turn's phases (telemetry). */
  observe: TurnObservers;
  /** The AI SDK's own telemetry for the model calls (`experimental_telemetry`), when the observers ask for it. */
  aiSdkTelemetry: TelemetrySettings | null;
  /** Titles a chat once a turn has ended, off the turn's path (absent: titles are left alone). */
  titles?: { afterTurn(turn: Turn, ending: TurnEnding): Promise<void> } | null;
  /** Reports a swallowed error; never throws. */
  report(error: unknown, context: ErrorContext): void;
}

/** The model a turn runs on: the allow-listed id (stored, streamed) and the instance that is called. */
export interface TurnModel {
  modelId: string;
  provider: string;
  model: LanguageModel;
}
