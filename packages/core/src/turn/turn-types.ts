import type { Caller } from '@chatwire/storage';

/** Where an error reported through `onError` happened. */
export type ErrorStage = 'model' | 'tool' | 'history' | 'compaction' | 'persist' | 'lease' | 'title' | 'internal';

export interface ErrorContext {
  stage: ErrorStage;
  chatId?: string;
  userId?: string;
}

export type ErrorReporter = (error: unknown, context: ErrorContext) => void;

export interface TurnOptions {
  /** Aborts the model call (the HTTP handler passes `request.signal`). */
  signal?: AbortSignal;
  /** The caller's JWT: sent to the provider so the caller pays (spec 5). Omitted: APP_OWNER_JWT pays. */
  authToken?: string;
}

export interface StartedTurn {
  /** The assistant row's recordId, also sent as `X-Asst-Id` and as the `start` chunk's messageId. */
  assistantMessageId: string;
  modelId: string;
  /** SSE bytes of the AI SDK v5 UI message stream, ending with `data: [DONE]`. */
  stream: ReadableStream<Uint8Array>;
}

/** A running turn a later reader attached to: its bytes from the first, then live. */
export type ResumedTurn = Omit<StartedTurn, 'modelId'>;

export type { Caller };
