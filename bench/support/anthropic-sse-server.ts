/**
 * The loopback provider of the real-path benches (run as a child: `node --import tsx`): an Anthropic
 * Messages API on node:http (`POST /v1/messages`, streaming SSE as the real API sends it: message_start,
 * content_block_start, ping, content_block_delta..., content_block_stop, message_delta, message_stop).
 * Each answer has `deltas` text deltas, one every `paceMs` (0: all at once). The first delta's text is the
 * moment it was written (`process.hrtime.bigint()`, CLOCK_MONOTONIC, the same clock in every process of the
 * machine), so a client can tell how long after the provider's write it read the first text delta.
 * IPC: `config` (deltas, paceMs), `open` (streams being answered), `exit`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProviderCommand = { type: 'config'; deltas: number; paceMs: number } | { type: 'open' } | { type: 'exit' };
export type ProviderReply = { type: 'ready'; port: number } | { type: 'configured' } | { type: 'open'; open: number; answered: number };

/** One SSE event as the Anthropic API writes it. */
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export const DELTA_TEXT = 'tok ';
/** Marks the provider's first text delta: `STAMP<ns>` (the rest of the deltas are DELTA_TEXT). */
export const STAMP = 'T';

export function head(model: string): string {
  return (
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 120, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    }) +
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
    sse('ping', { type: 'ping' })
  );
}

export const delta = (text: string) => sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

export function tail(outputTokens: number): string {
  return (
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }) +
    sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } }) +
    sse('message_stop', { type: 'message_stop' })
  );
}

let deltas = 40;
let paceMs = 50;
let open = 0;
let answered = 0;
const DELTA = delta(DELTA_TEXT);

function answer(req: IncomingMessage, res: ServerResponse, model: string): void {
  const count = deltas;
  const pace = paceMs;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': 'req_bench' });
  res.write(head(model));
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  open++;
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    open--;
    clearTimeout(timer);
  };
  res.once('close', finish);
  const next = (): void => {
    if (closed) return;
    if (sent === count) {
      answered++;
      res.end(tail(count));
      return finish();
    }
    res.write(sent === 0 ? delta(`${STAMP}${process.hrtime.bigint()}`) : DELTA);
    sent++;
    if (pace > 0) timer = setTimeout(next, pace);
    else next();
  };
  if (pace > 0) timer = setTimeout(next, pace);
  else next();
  req.resume();
}

const server = createServer((req, res) => {
  if (req.method !== 'POST' || !req.url?.endsWith('/messages')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error","message":"not found"}}');
    return;
  }
  // The model name is echoed as the API does; reading it costs the provider, not the line being measured.
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let model = 'claude-bench';
    try {
      model = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model?: string }).model ?? model;
    } catch {
      // answered anyway
    }
    answer(req, res, model);
  });
});
server.keepAliveTimeout = 60_000;

if (process.send) {
  server.listen(0, '127.0.0.1', () => process.send!({ type: 'ready', port: (server.address() as AddressInfo).port } satisfies ProviderReply));
  process.on('message', (command: ProviderCommand) => {
    switch (command.type) {
      case 'config':
        deltas = command.deltas;
        paceMs = command.paceMs;
        return process.send!({ type: 'configured' } satisfies ProviderReply);
      case 'open':
        return process.send!({ type: 'open', open, answered } satisfies ProviderReply);
      case 'exit':
        server.closeAllConnections();
        process.exit(0);
    }
  });
}

// The bench that started this child is gone: so is the child.
process.on('disconnect', () => process.exit(0));
