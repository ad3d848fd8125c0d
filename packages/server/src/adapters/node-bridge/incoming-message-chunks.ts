import { ChatwireError } from '@chatwire/storage';
import type { Readable } from 'node:stream';
import { bodyCutOff } from '../../body-cut-off.js';
import { clientClosed } from './client-closed.js';

/**
 * A node:http request body as chunks, read straight off the IncomingMessage (no web `ReadableStream`, no
 * promise per chunk while bytes are buffered): what `bodyChunks` gives for a web body, with the same rules.
 *
 * - No byte for `idleMs` is a 408 `TIMEOUT`; only the client's idleness counts, never the consumer's own time.
 * - Stopping early (an error, a limit) stops reading: nothing more is taken off the socket, and the adapter
 *   closes the connection after its answer instead of draining an upload nobody reads.
 * - The client going away mid-body (or a body Node cannot parse) ends the chunks with a VALIDATION error
 *   (`bodyCutOff`, never reported) whose cause is the request's error (Node's `aborted`), or an `AbortError`
 *   when the request closed without one.
 *
 * The chunks are the request's own Buffers (as Node's async iterator yields them): a consumer that keeps one
 * copies it.
 */
export async function* incomingMessageChunks(req: Readable, idleMs: number): AsyncGenerator<Uint8Array> {
  let wake: (() => void) | null = null;
  let failure: unknown = null;
  let stalled = false;
  let waiting = false;
  let finished = false;
  const signal = (): void => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  const onError = (error: unknown): void => {
    failure ??= error;
    signal();
  };
  const onClose = (): void => {
    if (!req.readableEnded) failure ??= clientClosed();
    signal();
  };
  const timer =
    idleMs > 0
      ? setTimeout(function onIdle() {
          if (!waiting) return void timer!.refresh();
          stalled = true;
          signal();
        }, idleMs)
      : undefined;
  req.on('readable', signal);
  req.on('end', signal);
  req.on('error', onError);
  req.on('close', onClose);
  try {
    for (;;) {
      const chunk = req.destroyed ? null : (req.read() as Buffer | null);
      if (chunk !== null) {
        if (chunk.byteLength > 0) yield chunk;
        continue;
      }
      if (req.readableEnded) {
        finished = true;
        return;
      }
      if (failure !== null) throw bodyCutOff(failure);
      if (req.destroyed) throw bodyCutOff(clientClosed());
      timer?.refresh();
      waiting = true;
      await new Promise<void>((resolve) => (wake = resolve));
      waiting = false;
      if (stalled) throw new ChatwireError('TIMEOUT', `No upload bytes arrived for ${idleMs} ms`);
    }
  } finally {
    clearTimeout(timer);
    req.off('readable', signal);
    req.off('end', signal);
    req.off('error', onError);
    req.off('close', onClose);
    if (!finished) req.pause();
  }
}
