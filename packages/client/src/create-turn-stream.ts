import type { Action } from './action.js';
import { ChatwireClientError } from './chatwire-client-error.js';
import { decodeActionBatches, decodeActions } from './decode-actions.js';
import { decodeChunks, type DecodeOptions } from './decode-chunks.js';
import type { OpenTurn } from './post-turn.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

/** A turn's event stream whose headers arrived. Iterate ONE of `actions`, `actionBatches`, `chunks` (the body is read once). */
export interface TurnStream {
  /** `X-Asst-Id`: the id the assistant row is stored under. */
  assistantMessageId: string;
  /** Decoded actions; never throws (see `decodeActions`). */
  readonly actions: AsyncIterableIterator<Action>;
  /** The same actions, one array per network read: reduce a batch, render once. */
  readonly actionBatches: AsyncIterableIterator<Action[]>;
  /** The validated chunks, for `data-*`, `message-metadata` and the like; a failed read rejects. */
  readonly chunks: AsyncIterableIterator<UiMessageChunk>;
  /**
   * Closes this connection; `actions` ends with `abort` (origin `client`). For the request that started the
   * turn this is a disconnect (the server's `onDisconnect` decides: by default nothing is stored); to keep
   * the partial answer, call `stopTurn(chatId)` instead. For a resumed stream the turn runs on.
   */
  abort(): void;
}

/** The views over one open stream; `controller` is the request's own (its signal is the request's). */
export function createTurnStream(open: OpenTurn, controller: AbortController, decode: DecodeOptions): TurnStream {
  const { assistantMessageId, body } = open;
  type View = 'actions' | 'actionBatches' | 'chunks';
  let used: View | undefined;
  const claim = (which: View) => {
    if (used !== undefined && used !== which) {
      throw new ChatwireClientError('BODY_CONSUMED', `the stream is already read through ${used}`, { status: 200 });
    }
    used = which;
  };
  const decodeWithSignal = { ...decode, signal: controller.signal };
  let actions: AsyncIterableIterator<Action> | undefined;
  let actionBatches: AsyncIterableIterator<Action[]> | undefined;
  let chunks: AsyncIterableIterator<UiMessageChunk> | undefined;
  return {
    assistantMessageId,
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
}

/** A controller that follows `signal` (aborted with it, or already aborted). */
export function followSignal(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (signal) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller;
}
