import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `head` (request line and header lines, without the blank line; latin1) and `body` (UTF-8) to a
 * loopback HTTP server, with `Connection: close`, and reads the answer until the server closes. For what
 * `fetch` cannot send: forbidden methods, credentials in the Host header, absolute-form targets. Status 0:
 * the server closed without answering.
 */
export function sendRawRequest(url: string, head: string, body = ''): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const bytes = Buffer.from(body, 'utf8');
  const length = bytes.length === 0 ? '' : `Content-Length: ${bytes.length}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server that answers early (413) and closes may reset the connection while the body is still going out.
    socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
    socket.on('close', () => resolve(parse(Buffer.concat(chunks).toString('latin1'))));
    socket.write(`${head}\r\n${length}Connection: close\r\n\r\n`, 'latin1');
    // Not `end()`: node:http drops a request whose client half-closed before the answer was ready.
    socket.write(bytes);
  });
}

function parse(text: string): RawResponse {
  if (text === '') return { status: 0, headers: {}, body: '' };
  const split = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  // Chunk sizes count bytes: take the chunks apart before decoding UTF-8.
  let bytes = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') bytes = unchunk(bytes);
  return { status: Number(statusLine!.split(' ')[1]), headers, body: Buffer.from(bytes, 'latin1').toString('utf8') };
}

function unchunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!(size > 0)) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}
