import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * True when the connection must not be reused after `status`: an error answer (401, 408, 413, ...) given
 * before the request body has fully arrived. Keeping the connection would mean reading the rest of an
 * upload nobody wants, which a hostile client can make endless. Node parses a body that came in the same
 * packet as the headers only after the request was handed over, so bytes already received are given one
 * event-loop turn to be parsed before the body counts as incomplete.
 */
export async function mustCloseAfter(req: IncomingMessage, status: number): Promise<boolean> {
  if (status < 400 || req.complete) return false;
  await new Promise((resolve) => setImmediate(resolve));
  return !req.complete;
}

/**
 * Answers with `Connection: close` and destroys the socket as soon as the response is flushed, without
 * reading any more of the request body (the socket is not resumed; what the kernel already holds is
 * dropped with the connection).
 */
export function closeAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  res.setHeader('connection', 'close');
  req.pause();
  res.once('finish', () => {
    socket.end(() => socket.destroy());
  });
}
