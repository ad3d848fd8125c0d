import type { ServerResponse } from 'node:http';
import { directBodyOf } from '../../http/direct-body.js';
import { writeDirectBody } from './write-direct-body.js';
import { clientClosed } from './client-closed.js';

/**
 * Writes a web `Response` to a node:http response.
 *
 * - Status, status text and every header are copied; `Set-Cookie` keeps each cookie separate.
 * - Headers go out at once and each body chunk is written as soon as it is produced (no buffering;
 *   Nagle off; `res.flush()` is called when a compression middleware added it).
 * - Backpressure: when `write` returns false the next chunk is read only after `drain`. A body that fails
 *   while waiting for `drain` destroys the connection (the client is not reading; nothing else could end it).
 * - A turn's own body (`http/direct-body.ts`) is written without reading its stream (`writeDirectBody`), with
 *   the same heartbeat, idle drop, disconnect and end.
 * - A client disconnect cancels the body stream. The response is always ended, also when the body
 *   stream fails mid-way; that failure is rethrown for the caller to report.
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  copyHeaders(response.headers, res);

  const body = response.body;
  if (body === null || res.req?.method === 'HEAD') {
    await body?.cancel().catch(() => undefined);
    res.end();
    return;
  }

  res.socket?.setNoDelay(true);
  res.flushHeaders();
  // A turn's own body: its bytes are written as they are produced, with no stream read per chunk.
  const direct = directBodyOf(body);
  const writing = direct === null ? null : writeDirectBody(res, direct);
  if (writing !== null) return writing;
  const reader = body.getReader();
  const onClose = (): void => {
    reader.cancel(clientClosed()).catch(() => undefined);
  };
  res.once('close', onClose);
  const failure = watchFailure(reader.closed);
  let stalled = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value) && !(await drained(res, failure))) {
        // The body failed while the client was taking nothing (e.g. dropped for not reading): ending the
        // response politely would wait for a client that does not read, so the connection goes.
        stalled = true;
        res.destroy();
        await reader.closed;
      }
      (res as ServerResponse & { flush?: () => void }).flush?.();
    }
  } catch (error) {
    if (!res.destroyed || stalled) throw error; // a failure after the client left is nobody's concern
  } finally {
    res.off('close', onClose);
    // Left the loop early (client gone): cancel the body so the handler stops producing it.
    if (res.destroyed) onClose();
    if (!res.writableEnded) res.end();
  }
}

function copyHeaders(headers: Headers, res: ServerResponse): void {
  for (const [key, value] of headers) {
    if (key !== 'set-cookie') res.setHeader(key, value);
  }
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

/** Lets a wait for `drain` end early when the body stream fails (one listener for the whole response). */
function watchFailure(closed: Promise<void>): { failed: boolean; notify: (() => void) | undefined } {
  const watch: { failed: boolean; notify: (() => void) | undefined } = { failed: false, notify: undefined };
  closed.catch(() => {
    watch.failed = true;
    watch.notify?.();
  });
  return watch;
}

/**
 * Resolves true on `drain`, or when the response closes or fails (no drain will come then); false when
 * the body stream fails first.
 */
function drained(res: ServerResponse, body: ReturnType<typeof watchFailure>): Promise<boolean> {
  if (body.failed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (outcome: boolean): void => {
      res.off('drain', onDrain);
      res.off('close', onDrain);
      res.off('error', onDrain);
      body.notify = undefined;
      resolve(outcome);
    };
    const onDrain = (): void => finish(true);
    res.on('drain', onDrain);
    res.on('close', onDrain);
    res.on('error', onDrain);
    body.notify = () => finish(false);
  });
}
