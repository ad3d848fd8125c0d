import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `head` (request line and header lines, without the blank line) and `body` as they are to a
 * loopback HTTP server, with `Connection: close`, and reads the answer until the server closes. For what
 * `fetch` cannot send: forbidden methods, credentials in the Host header, absolute-form targets. Status 0:
 * the server closed without answering.
 */
export function sendRawRequest(url: string, head: string, body = ''): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const length = body === '' ? '' : `Content-Length: ${Buffer.byteLength(body, 'latin1')}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parse(Buffer.concat(chunks).toString('latin1'))));
    socket.end(`${head}\r\n${length}Connection: close\r\n\r\n${body}`, 'latin1');
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
  let body = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
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
