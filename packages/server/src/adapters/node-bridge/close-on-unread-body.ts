import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Makes sure a request body nobody reads never holds a connection (reading the rest of an upload nobody
 * wants could take for ever; a hostile client makes sure it does):
 *
 * - an error answer (401, 408, 413, 500, ...) given before the body has fully arrived goes out with
 *   `Connection: close`, and the socket is destroyed as soon as the answer is flushed, without reading
 *   any more of the body;
 * - any other answer closes the connection after it was flushed when the handler left the body unread.
 *
 * Node parses a body that came in the same packet as the headers only after handing the request over, so
 * bytes already received get one event-loop turn to be parsed before the body counts as incomplete.
 */
export function closeOnUnreadBody(req: IncomingMessage, res: ServerResponse, status: number): Promise<void> | undefined {
  // The whole body is there (always so for a GET without one): nothing can hold the connection.
  if (req.complete) return undefined;
  return closeOnIncompleteBody(req, res, status);
}

async function closeOnIncompleteBody(req: IncomingMessage, res: ServerResponse, status: number): Promise<void> {
  const socket = req.socket;
  const close = (): void => {
    socket.end(() => socket.destroy());
  };
  if (status >= 400 && !(await bodyArrived(req))) {
    res.setHeader('connection', 'close');
    req.pause();
    res.once('finish', close);
    return;
  }
  res.once('finish', () => {
    void bodyArrived(req).then((arrived) => arrived || close());
  });
}

async function bodyArrived(req: IncomingMessage): Promise<boolean> {
  if (req.complete) return true;
  await new Promise((resolve) => setImmediate(resolve));
  return req.complete;
}
