/**
 * Where a running turn's output lives while it runs, so that readers other than the HTTP response that
 * started it (a reload, a second tab, another process) can attach: the chunk log of the turn.
 *
 * The producer appends the exact SSE bytes it sends; every reader replays them from the first byte, then
 * follows live until the log ends. Readers never slow the producer down and never touch the turn.
 */
export interface TurnHub {
  /** Starts the log of a turn of `chatId` (replacing the log of an earlier, ended turn of that chat). */
  open(chatId: string, turnId: string): TurnLogWriter;
  /**
   * The chat's running turn, replayed from its first byte then live to its end. `null` when no turn of this
   * chat is running (none started, or the last one ended). When the producing process dies, the stream
   * yields every byte that was appended, then an `error` chunk and `data: [DONE]`.
   */
  attach(chatId: string, options?: { signal?: AbortSignal }): Promise<AttachedTurn | null>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

export interface AttachedTurn {
  /** The turn's assistant message id (`X-Asst-Id`). */
  turnId: string;
  stream: ReadableStream<Uint8Array>;
}

export interface TurnLogWriter {
  /** Appends SSE bytes, in order; never blocks the producer. Bytes past the hub's per-turn cap are dropped and readers that reach the cap get an `error` chunk. */
  append(bytes: Uint8Array): void;
  /** Marks the log complete: readers get everything, then their stream closes. Idempotent. */
  end(): Promise<void>;
}

/**
 * Cross-process messages about a chat's turn: a stop request, and the news that a turn ended (so a stop
 * route on another process can answer once the partial turn is stored).
 */
export interface TurnBus {
  publish(chatId: string, event: TurnBusEvent): Promise<void>;
  /** Resolves once the subscription is live; the returned function unsubscribes. */
  subscribe(chatId: string, listener: (event: TurnBusEvent) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type TurnBusEvent = { type: 'stop' } | { type: 'ended'; turnId: string; ending: string };
