import { ChatwireError } from '@chatwire/storage';

/** Silence after which an SSE comment goes out. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** How long a client may read nothing before it is dropped. */
export const DEFAULT_CLIENT_IDLE_TIMEOUT_MS = 60_000;

export interface HeartbeatOptions {
  /** Sends `: keep-alive\n\n` after this many milliseconds without bytes (default 15 s; 0 turns it off). */
  heartbeatMs?: number;
  /**
   * Drops a client that takes nothing for this many milliseconds (default 60 s; 0 turns it off): the
   * source is cancelled as on a disconnect and the returned stream fails with a `TIMEOUT` error.
   */
  clientIdleTimeoutMs?: number;
  /** Called once when a client is dropped for reading nothing. */
  onIdle?: () => void;
}

const HEARTBEAT = new TextEncoder().encode(': keep-alive\n\n');
const HEARTBEAT_DUE = Symbol('heartbeat due');

/** setTimeout's largest delay: a longer one would fire at once. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

function isEnabled(ms: number): boolean {
  return ms > 0;
}

function timerDelay(ms: number): number {
  return Math.min(ms, MAX_TIMER_DELAY_MS);
}

/** The last bytes sent, to tell whether they end an SSE event (a blank line, LF or CRLF). */
class EventEndTracker {
  private tail = '\n\n';

  see(chunk: Uint8Array): void {
    let added = '';
    for (let i = Math.max(0, chunk.byteLength - 4); i < chunk.byteLength; i++) added += String.fromCharCode(chunk[i]!);
    this.tail = (this.tail + added).slice(-4);
  }

  get atEventEnd(): boolean {
    return this.tail.endsWith('\n\n') || this.tail.endsWith('\r\r') || this.tail.endsWith('\r\n\r\n');
  }
}

/**
 * Wraps an SSE body so that a quiet stream keeps the connection alive and a client that stopped reading
 * is let go.
 *
 * - Pull-based: the source is read only when the consumer asks for bytes, so nothing is buffered beyond
 *   the source's own queue and one chunk; a slow reader slows the source down instead of growing the heap.
 * - While the consumer waits and the source has produced nothing for `heartbeatMs`, the comment
 *   `: keep-alive` is sent, only between events (after a chunk that ends with a blank line).
 * - When the consumer has not asked for anything for `clientIdleTimeoutMs` (the Node bridge stops asking
 *   while the socket does not drain), the source is cancelled with a `TIMEOUT` error, `onIdle` is called
 *   and the returned stream fails with that error.
 * - Cancelling the returned stream cancels the source with the same reason.
 */
export function withHeartbeat(body: ReadableStream<Uint8Array>, options: HeartbeatOptions = {}): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const idleMs = options.clientIdleTimeoutMs ?? DEFAULT_CLIENT_IDLE_TIMEOUT_MS;
  const reader = body.getReader();
  /** A source read started by an earlier pull that was answered with a heartbeat instead. */
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  const sent = new EventEndTracker();
  let ended = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeatTimer: ReturnType<typeof setTimeout> | undefined;

  const stopTimers = (): void => {
    clearTimeout(idleTimer);
    clearTimeout(heartbeatTimer);
    idleTimer = undefined;
    heartbeatTimer = undefined;
  };

  const dropIdleClient = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    if (ended) return;
    ended = true;
    stopTimers();
    const error = new ChatwireError('TIMEOUT', `The client read nothing for ${idleMs} ms`);
    reader.cancel(error).catch(() => undefined);
    try {
      options.onIdle?.();
    } catch {
      // A throwing listener must not keep the client.
    }
    controller.error(error);
  };

  const waitForConsumer = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    if (!ended && isEnabled(idleMs)) idleTimer = setTimeout(() => dropIdleClient(controller), timerDelay(idleMs));
  };

  const nextFromSource = (
    read: Promise<ReadableStreamReadResult<Uint8Array>>,
  ): Promise<ReadableStreamReadResult<Uint8Array> | typeof HEARTBEAT_DUE> => {
    if (!isEnabled(heartbeatMs) || !sent.atEventEnd) return read;
    const due = new Promise<typeof HEARTBEAT_DUE>((resolve) => {
      heartbeatTimer = setTimeout(() => resolve(HEARTBEAT_DUE), timerDelay(heartbeatMs));
    });
    return Promise.race([read, due]).finally(() => clearTimeout(heartbeatTimer));
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        waitForConsumer(controller);
      },
      async pull(controller) {
        clearTimeout(idleTimer);
        const read = (pending ??= reader.read());
        let result: Awaited<ReturnType<typeof nextFromSource>>;
        try {
          result = await nextFromSource(read);
        } catch (error) {
          ended = true;
          stopTimers();
          throw error;
        }
        if (ended) return; // dropped or cancelled meanwhile
        if (result === HEARTBEAT_DUE) {
          controller.enqueue(HEARTBEAT);
          waitForConsumer(controller);
          return;
        }
        pending = undefined;
        if (result.done) {
          ended = true;
          stopTimers();
          controller.close();
          return;
        }
        sent.see(result.value);
        controller.enqueue(result.value);
        waitForConsumer(controller);
      },
      cancel(reason) {
        ended = true;
        stopTimers();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
