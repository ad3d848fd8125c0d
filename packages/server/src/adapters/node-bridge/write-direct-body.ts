import type { ServerResponse } from 'node:http';
import { ChatwireError } from '@chatwire/storage';
import type { ByteSink, ByteSource, DirectBody } from '../../http/direct-body.js';
import { EventEndTracker } from '../../http/event-end-tracker.js';
import { HEARTBEAT } from '../../http/with-heartbeat.js';
import { clientClosed } from './client-closed.js';

/** setTimeout's largest delay: a longer one would fire at once. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Writes a body taken as calls (`direct-body.ts`) to a node:http response whose headers went out: each
 * chunk is written as it is produced, with no web stream, reader or promise per chunk. It keeps what
 * `withHeartbeat` + `writeResponse` do for the web stream:
 *
 * - `: keep-alive` after `heartbeatMs` without bytes, between events, while the socket takes bytes;
 * - a client whose socket has not drained for `clientIdleTimeoutMs` is dropped: the body is cancelled with a
 *   `TIMEOUT` error, `onIdle` runs, the connection is destroyed and the returned promise rejects with that
 *   error (for the caller to report);
 * - a client disconnect cancels the body (an `AbortError`), and the promise resolves;
 * - the response ends when the body ends; `res.flush()` after each write when a compression middleware
 *   added it.
 *
 * The bytes the socket does not take yet wait in the response's own buffer (as they waited in the web
 * stream's queue). One timer per response, not per chunk. Returns null when the body was read meanwhile
 * (nothing was written then).
 */
export function writeDirectBody(res: ServerResponse, body: DirectBody): Promise<void> | null {
  return new DirectBodyWriter(res, body).start(body);
}

/**
 * The writer's state, as one object with methods rather than a closure per callback: one of these lives
 * per open stream, so it is kept small (three bound listeners, no context per callback).
 */
class DirectBodyWriter implements ByteSink {
  private readonly sent = new EventEndTracker();
  private readonly heartbeatMs: number;
  private readonly idleMs: number;
  private readonly onIdle: (() => void) | undefined;
  private readonly finished: Promise<void>;
  private resolve!: () => void;
  private reject!: (error: unknown) => void;
  private over = false;
  private source: ByteSource | null = null;
  private lastSent = Date.now();
  /** When a write last found the socket full (-1 while it takes bytes). */
  private stalledSince = -1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private readonly onClose = this.closed.bind(this);
  private readonly onDrain = this.drained.bind(this);
  private readonly onTimer = this.tick.bind(this);

  constructor(
    private readonly res: ServerResponse & { flush?: () => void },
    body: DirectBody,
  ) {
    this.heartbeatMs = body.heartbeatMs;
    this.idleMs = body.clientIdleTimeoutMs;
    this.onIdle = body.onIdle;
    this.finished = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  start(body: DirectBody): Promise<void> | null {
    this.res.once('close', this.onClose);
    this.source = body.attach(this);
    if (this.source === null) {
      this.finish();
      return null;
    }
    if (this.res.destroyed) this.closed();
    else this.arm(this.deadline());
    return this.finished;
  }

  /** ByteSink: the next bytes of the body. */
  write(bytes: Uint8Array): void {
    if (this.over) return;
    this.send(bytes);
  }

  /** ByteSink: the body ended. */
  end(): void {
    if (this.over) return;
    this.finish();
    this.res.end();
    this.resolve();
  }

  private send(bytes: Uint8Array): void {
    this.sent.see(bytes);
    this.lastSent = Date.now();
    if (!this.res.write(bytes) && this.stalledSince < 0) {
      this.stalledSince = this.lastSent;
      this.res.once('drain', this.onDrain);
      this.arm(this.deadline());
    } else if (this.timerAt === Infinity) {
      this.arm(this.deadline());
    }
    this.res.flush?.();
  }

  private deadline(): number {
    if (this.stalledSince >= 0) return this.idleMs > 0 ? this.stalledSince + this.idleMs : Infinity;
    return this.heartbeatMs > 0 && this.sent.atEventEnd ? this.lastSent + this.heartbeatMs : Infinity;
  }

  /** Makes the timer fire no later than `at`. Deadlines only move later, so this is nearly always a no-op. */
  private arm(at: number): void {
    if (this.over || !(at < this.timerAt)) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.onTimer, Math.min(MAX_TIMER_DELAY_MS, Math.max(0, at - Date.now())));
    this.timer.unref?.();
  }

  private finish(): void {
    this.over = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.res.off('close', this.onClose);
    this.res.off('drain', this.onDrain);
  }

  private drained(): void {
    this.stalledSince = -1;
    this.arm(this.deadline());
  }

  private closed(): void {
    if (this.over) return;
    this.finish();
    this.source?.cancel(clientClosed());
    this.resolve();
  }

  private tick(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.over) return;
    const now = Date.now();
    if (this.stalledSince >= 0 && this.idleMs > 0 && now - this.stalledSince >= this.idleMs) return this.dropIdleClient();
    if (this.stalledSince < 0 && this.heartbeatMs > 0 && this.sent.atEventEnd && now - this.lastSent >= this.heartbeatMs) this.send(HEARTBEAT);
    this.arm(this.deadline());
  }

  private dropIdleClient(): void {
    this.finish();
    const error = new ChatwireError('TIMEOUT', `The client read nothing for ${this.idleMs} ms`);
    this.source?.cancel(error);
    try {
      this.onIdle?.();
    } catch {
      // A throwing listener must not keep the client.
    }
    this.res.destroy();
    this.reject(error);
  }
}
