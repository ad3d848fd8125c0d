import type { ServerResponse } from 'node:http';

/**
 * Writes a web `Response` to a node:http response.
 *
 * - Status, status text and every header are copied; `Set-Cookie` keeps each cookie separate.
 * - Headers go out at once and each body chunk is written as soon as it is produced (no buffering;
 *   Nagle off; `res.flush()` is called when a compression middleware added it).
 * - Backpressure: when `write` returns false the next chunk is read only after `drain`.
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
  const reader = body.getReader();
  const onClose = (): void => {
    reader.cancel(new DOMException('The client closed the connection', 'AbortError')).catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drained(res);
      (res as ServerResponse & { flush?: () => void }).flush?.();
    }
  } catch (error) {
    if (!res.destroyed) throw error; // a failure after the client left is nobody's concern
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

/** Resolves on `drain`, or when the response closes or fails (no drain will come then). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      res.off('error', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
    res.on('error', done);
  });
}
