/**
 * A chat-completions provider on 127.0.0.1 for the per-major fresh apps: `POST /v1/chat/completions` answers
 * the n-th streamed call with `answers[n]` (the last one repeats) as OpenAI-style SSE chunks, with usage, then
 * `data: [DONE]`; a call without `stream: true` (a title, a summary) gets one JSON completion. It records
 * every request body so the app can assert what its own model sent.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackProvider {
  /** Base URL to give the provider package, e.g. `http://127.0.0.1:PORT/v1`. */
  baseURL: string;
  /** The JSON bodies of the streamed calls, in order. */
  streamedCalls: Array<{ model: string; messages: Array<{ role: string; content: unknown }> }>;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/** Splits an answer into word-sized deltas, so a turn streams more than one chunk. */
function deltas(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

export async function startLoopbackProvider(answers: readonly string[]): Promise<LoopbackProvider> {
  const streamedCalls: LoopbackProvider['streamedCalls'] = [];
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    readJson(req).then(
      (body) => {
        const model = String(body.model);
        const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };
        const base = { id: `chatcmpl-${streamedCalls.length + 1}`, created: 1_700_000_000, model };
        if (body.stream !== true) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...base, object: 'chat.completion', usage, choices: [{ index: 0, message: { role: 'assistant', content: 'Loopback title' }, finish_reason: 'stop' }] }));
          return;
        }
        streamedCalls.push(body as LoopbackProvider['streamedCalls'][number]);
        const answer = answers[Math.min(streamedCalls.length, answers.length) - 1] ?? '';
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
        deltas(answer).forEach((content, i) =>
          send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }] }),
        );
        send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage });
        res.end('data: [DONE]\n\n');
      },
      (error: unknown) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(error) } })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    streamedCalls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
