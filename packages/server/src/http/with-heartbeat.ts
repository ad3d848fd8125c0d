import { ChatwireError } from '@chatwire/storage';
import { offerDirectBody, PUSH_SOURCE, type PushStream } from './direct-body.js';
import { EventEndTracker } from './event-end-tracker.js';

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

export const HEARTBEAT = new TextEncoder().encode(': keep-alive\n\n');
const HEARTBEAT_DUE = Symbol('heartbeat due');

/** setTimeout's largest delay: a longer one would fire at once. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

function isEnabled(ms: number): boolean {
  return ms > 0;
}

function timerDelay(ms: number): number {
  return Math.min(ms, MAX_TIMER_DELAY_MS);
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
 *
 * One timer per stream, not per chunk: a chunk only records the time, and the timer re-arms itself for
 * whatever is left of the nearest deadline when it fires.
 */
export function withHeartbeat(body: ReadableStream<Uint8Array>, options: HeartbeatOptions = {}): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const idleMs = options.clientIdleTimeoutMs ?? DEFAULT_CLIENT_IDLE_TIMEOUT_MS;
  // Taken on the first pull: until then the body may still be handed to a direct writer (see below).
  let bodyReader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const reader = (): ReadableStreamDefaultReader<Uint8Array> => (bodyReader ??= body.getReader());
  /** Set when an adapter took the bytes as calls: this stream is then never read. */
  let taken = false;
  const sent = new EventEndTracker();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  /** True while the consumer waits for bytes (a pull is running). */
  let waiting = false;
  /** When the consumer last asked for bytes, and when bytes (data or heartbeat) last went out. */
  let lastAsked = Date.now();
  let lastSent = lastAsked;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;
  /** Read from the source that a heartbeat answered first: the next pull takes it up again. */
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  /**
   * Answers the running pull with HEARTBEAT_DUE (set while a pull waits between events). Not a race
   * against one long-lived promise: every race would leave a reaction holding its chunk on that promise
   * until the next heartbeat, 15 s of chunks per stream.
   */
  let answerWithBeat: ((due: typeof HEARTBEAT_DUE) => void) | undefined;

  const heartbeatAt = (): number => (isEnabled(heartbeatMs) ? lastSent + heartbeatMs : Infinity);
  const idleAt = (): number => (isEnabled(idleMs) ? lastAsked + idleMs : Infinity);

  const stop = (): void => {
    ended = true;
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
  };

  /** Makes the timer fire no later than `at`. Deadlines only move later, so this is nearly always a no-op. */
  const arm = (at: number): void => {
    if (ended || !(at < timerAt)) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(tick, timerDelay(Math.max(0, at - Date.now())));
    timer.unref?.();
  };

  const dropIdleClient = (): void => {
    stop();
    const error = new ChatwireError('TIMEOUT', `The client read nothing for ${idleMs} ms`);
    reader().cancel(error).catch(() => undefined);
    try {
      options.onIdle?.();
    } catch {
      // A throwing listener must not keep the client.
    }
    controller.error(error);
  };

  /** At the nearest deadline: a heartbeat while the consumer waits, the idle drop while it does not. */
  function tick(): void {
    timer = undefined;
    timerAt = Infinity;
    if (ended) return;
    const now = Date.now();
    const beatAt = heartbeatAt();
    const dropAt = idleAt();
    if (waiting && sent.atEventEnd && beatAt <= now && answerWithBeat) return answerWithBeat(HEARTBEAT_DUE);
    if (!waiting && dropAt <= now) return dropIdleClient();
    arm(Math.min(beatAt > now ? beatAt : Infinity, dropAt > now ? dropAt : Infinity));
  }

  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        arm(Math.min(heartbeatAt(), idleAt()));
      },
      async pull() {
        if (taken) return;
        waiting = true;
        lastAsked = Date.now();
        if (sent.atEventEnd) arm(heartbeatAt());
        const read = (pending ??= reader().read());
        let result: ReadableStreamReadResult<Uint8Array> | typeof HEARTBEAT_DUE;
        try {
          result =
            isEnabled(heartbeatMs) && sent.atEventEnd
              ? await new Promise<ReadableStreamReadResult<Uint8Array> | typeof HEARTBEAT_DUE>((resolve, reject) => {
                  answerWithBeat = resolve;
                  read.then(resolve, reject);
                })
              : await read;
        } catch (error) {
          stop();
          throw error;
        } finally {
          answerWithBeat = undefined;
        }
        waiting = false;
        if (ended) return; // dropped or cancelled meanwhile
        lastSent = lastAsked = Date.now();
        if (result === HEARTBEAT_DUE) {
          controller.enqueue(HEARTBEAT);
        } else {
          pending = undefined;
          if (result.done) {
            stop();
            controller.close();
            return;
          }
          sent.see(result.value);
          controller.enqueue(result.value);
        }
        arm(Math.min(heartbeatAt(), idleAt()));
      },
      cancel(reason) {
        if (taken) return;
        stop();
        return bodyReader !== undefined ? bodyReader.cancel(reason) : body.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  // A body that offers its bytes as calls (a turn's own response): an adapter may take them, with this
  // stream's heartbeat and idle settings, before anything read this stream (`direct-body.ts`).
  const push = (body as PushStream)[PUSH_SOURCE];
  if (push !== undefined) {
    offerDirectBody(stream, () =>
      bodyReader !== undefined || ended
        ? null
        : {
            heartbeatMs: isEnabled(heartbeatMs) ? heartbeatMs : 0,
            clientIdleTimeoutMs: isEnabled(idleMs) ? idleMs : 0,
            onIdle: options.onIdle,
            attach(sink) {
              if (bodyReader !== undefined || ended) return null;
              const source = push(sink);
              if (source !== null) {
                taken = true;
                stop();
              }
              return source;
            },
          },
    );
  }
  return stream;
}
