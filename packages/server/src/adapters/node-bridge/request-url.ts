import { ChatwireError } from '@chatwire/storage';
import type { IncomingMessage } from 'node:http';

/**
 * The absolute URL of a request: scheme from the socket, host from the Host header, `path` or `req.url`.
 * A Host header that names no host (`a b`, `[::1`, an out-of-range port) is read as `localhost`; the routes
 * never depend on the host. A target `//x/y` is the path `//x/y` of this host, as node:http routes it. A VALIDATION error (400) for what a web `Request` cannot carry and Node's parser
 * lets through: an absolute-form target that is not a URL (`http://[::1/x`, `http://h:99999/x`), and
 * credentials in the target or in the Host header (`http://u:p@h/x`, `Host: u:p@h`), which HTTP forbids.
 */
export function requestUrl(req: IncomingMessage, path: string | undefined): URL {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const scheme = encrypted ? 'https' : 'http';
  const raw = path ?? req.url ?? '/';
  // An origin-form target is a path even when it starts with `//` (not a host, as in a relative URL).
  const target = raw.startsWith('//') ? `/.${raw}` : raw;
  let url: URL;
  try {
    url = new URL(target, `${scheme}://${req.headers.host ?? 'localhost'}`);
  } catch {
    try {
      url = new URL(target, `${scheme}://localhost`); // malformed Host header
    } catch {
      throw new ChatwireError('VALIDATION', 'The request target is not a valid URL', { details: { field: 'target' } });
    }
  }
  if (url.username !== '' || url.password !== '') {
    throw new ChatwireError('VALIDATION', 'The request target and the Host header must not carry credentials (user:password@)', {
      details: { field: 'host' },
    });
  }
  return url;
}
