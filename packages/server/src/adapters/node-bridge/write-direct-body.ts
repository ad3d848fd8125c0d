import type { ServerResponse } from 'node:http';
import { ChatwireError } from '@chatwire/storage';
import type { ByteSource, DirectBody } from '../../http/direct-body.js';
import { EventEndTracker } from '../../http/event-end-tracker.js';
import { HEARTBEAT } from '../../http/with-heartbeat.js';

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
  const { heartbeatMs, clientIdleTimeoutMs: idleMs, onIdle } = body;
  const flushable = res as ServerResponse & { flush?: () => void };
  const sent = new EventEndTracker();
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const finished = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  let over = false;
  let source: ByteSource | null = null;
  let lastSent = Date.now();
  /** When a write last found the socket full (-1 while it takes bytes). */
  let stalledSince = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;

  const deadline = (): number =>
    stalledSince >= 0 ? (idleMs > 0 ? stalledSince + idleMs : Infinity) : heartbeatMs > 0 && sent.atEventEnd ? lastSent + heartbeatMs : Infinity;

  /** Makes the timer fire no later than `at`. Deadlines only move later, so this is nearly always a no-op. */
  const arm = (at: number): void => {
    if (over || !(at < timerAt)) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(tick, Math.min(MAX_TIMER_DELAY_MS, Math.max(0, at - Date.now())));
    timer.unref?.();
  };

  const finish = (): void => {
    over = true;
    clearTimeout(timer);
    timer = undefined;
    res.off('close', onClose);
    res.off('drain', onDrain);
  };

  const write = (bytes: Uint8Array): void => {
    sent.see(bytes);
    lastSent = Date.now();
    if (!res.write(bytes) && stalledSince < 0) {
      stalledSince = lastSent;
      res.once('drain', onDrain);
      arm(deadline());
    } else if (timerAt === Infinity) {
      arm(deadline());
    }
    flushable.flush?.();
  };

  function onDrain(): void {
    stalledSince = -1;
    arm(deadline());
  }

  function onClose(): void {
    if (over) return;
    finish();
    source?.cancel(new DOMException('The client closed the connection', 'AbortError'));
    settle.resolve();
  }

  function tick(): void {
    timer = undefined;
    timerAt = Infinity;
    if (over) return;
    const now = Date.now();
    if (stalledSince >= 0 && idleMs > 0 && now - stalledSince >= idleMs) return dropIdleClient();
    if (stalledSince < 0 && heartbeatMs > 0 && sent.atEventEnd && now - lastSent >= heartbeatMs) write(HEARTBEAT);
    arm(deadline());
  }

  function dropIdleClient(): void {
    finish();
    const error = new ChatwireError('TIMEOUT', `The client read nothing for ${idleMs} ms`);
    source?.cancel(error);
    try {
      onIdle?.();
    } catch {
      // A throwing listener must not keep the client.
    }
    res.destroy();
    settle.reject(error);
  }

  res.once('close', onClose);
  source = body.attach({
    write(bytes) {
      if (!over) write(bytes);
    },
    end() {
      if (over) return;
      finish();
      res.end();
      settle.resolve();
    },
  });
  if (source === null) {
    finish();
    return null;
  }
  if (res.destroyed) onClose();
  else arm(deadline());
  return finished;
}
