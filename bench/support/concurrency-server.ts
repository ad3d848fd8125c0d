/**
 * Server child of `bench/concurrency.bench.ts` (run as `node --expose-gc --import tsx`, argv[2] = r0|r1|r2).
 * Serves one line on 127.0.0.1 (port 0) over a model paced at one delta per 50 ms, and answers the
 * parent over IPC: `prepare` (request specs for n streams), `memory` (after a full GC), `idle` (no open
 * response left). Every line aborts the model call when the client goes away.
 * R0 and R1 are plain node:http servers; R2 is chatwire's `toNodeListener(createChatHandler(...))`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeHeapSnapshot } from 'node:v8';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { streamText, UI_MESSAGE_STREAM_HEADERS, type ModelMessage } from 'ai';
import { toNodeListener } from '@chatwire/server/node';
import { createBenchModel } from './bench-model.js';
import { historyModelMessages } from './history.js';
import { createR2Fixture, r0Encode, R0_HEAD, R0_TAIL, toPrompt } from './routes.js';
import type { ServerCommand, ServerReply, StreamSpec } from './concurrency-protocol.js';

const line = process.argv[2] as 'r0' | 'r1' | 'r2';
const PACE_MS = 50;
// Longer than any level holds: the client closes its streams once a level is measured.
const model = createBenchModel({ deltas: 20 * 600, paceMs: PACE_MS });
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function abortOnClose(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  return controller.signal;
}

async function r0Listener(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { messages } = JSON.parse(await readBody(req)) as { messages: ModelMessage[] };
  const signal = abortOnClose(res);
  const { stream } = await model.doStream({ prompt: toPrompt(messages), abortSignal: signal });
  res.writeHead(200, UI_MESSAGE_STREAM_HEADERS);
  res.write(R0_HEAD);
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = r0Encode(value);
      if (text) res.write(text);
    }
    res.end(R0_TAIL);
  } catch {
    res.end();
  }
}

async function r1Listener(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { messages } = JSON.parse(await readBody(req)) as { messages: ModelMessage[] };
  streamText({ model, messages, abortSignal: abortOnClose(res) }).pipeUIMessageStreamToResponse(res);
}

const r2 = line === 'r2' ? await createR2Fixture(model) : null;
const chats: string[] = [];
const listener =
  r2 !== null
    ? toNodeListener(r2.handler)
    : (req: IncomingMessage, res: ServerResponse) => void (line === 'r0' ? r0Listener : r1Listener)(req, res).catch(() => res.destroy());

let open = 0;
const server = createServer((req, res) => {
  open++;
  res.once('close', () => open--);
  listener(req, res);
});
server.listen(0, '127.0.0.1', () => send({ type: 'ready', port: (server.address() as AddressInfo).port }));

function send(reply: ServerReply): void {
  process.send!(reply);
}

// Since the last `mark` or `memory` command: the longest GC pause and the server's event-loop delay (p99, max).
let gcMax = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
}).observe({ entryTypes: ['gc'] });
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

function memory(): Extract<ServerReply, { type: 'memory' }> {
  const diagnostics = { gcMaxMs: gcMax, loopP99Ms: loopDelay.percentile(99) / 1e6, loopMaxMs: loopDelay.max / 1e6 };
  gc();
  gc();
  const m = process.memoryUsage();
  gcMax = 0;
  loopDelay.reset();
  return { type: 'memory', heap: m.heapUsed, external: m.external + m.arrayBuffers, open, ...diagnostics };
}

const sharedBody = JSON.stringify({ messages: historyModelMessages(200) });

async function prepare(count: number): Promise<StreamSpec> {
  if (r2 === null) return { path: '/api/chat', headers: { 'content-type': 'application/json' }, bodies: [sharedBody] };
  while (chats.length < count) chats.push(await r2.createChat());
  return {
    path: '/api/ai/chat',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${r2.token}` },
    bodies: chats.slice(0, count).map((chatId) => r2.turnBody(chatId).body),
  };
}

process.on('message', (command: ServerCommand) => {
  void (async () => {
    switch (command.type) {
      case 'prepare':
        return send({ type: 'prepared', spec: await prepare(command.count) });
      case 'mark':
        gcMax = 0;
        loopDelay.reset();
        return send({ type: 'marked' });
      case 'memory':
        return send(memory());
      case 'idle': {
        const deadline = Date.now() + 30_000;
        while (open > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        return send({ type: 'idle', open, errors: r2?.errors.length ?? 0 });
      }
      case 'snapshot':
        gc();
        return send({ type: 'snapshot', path: writeHeapSnapshot(command.path) });
      case 'exit':
        server.closeAllConnections();
        server.close();
        process.exit(0);
    }
  })();
});
