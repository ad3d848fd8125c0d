import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicFixtures } from '../../../../server/src/replay/fixtures/anthropic-messages.js';
import { createNodeHttpFetch, NODE_BODY_WANTED, takeNodeBody } from '../node-http-fetch.js';
import { comparable, eligibleCall, errorShape, fastModel, outcome, packageModel } from './test-support/differential.js';

const text = anthropicFixtures.find((f) => f.name === 'anthropic: text')!.responses[0]!.body;
const tool = anthropicFixtures.find((f) => f.name.startsWith('anthropic: tool_use with input_json_delta'))!.responses[0]!.body;

/** Paths: /full/<fixture> sends it in 7-byte writes; /stall sends half and waits; /lost sends half and drops the connection. */
let server: Server;
let base: string;
const open = new Set<ServerResponse>();

function send(res: ServerResponse, body: string, until: number, then: 'end' | 'stall' | 'lost'): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let at = 0;
  const step = () => {
    if (at >= until) {
      if (then === 'end') res.end();
      else if (then === 'lost') res.socket?.destroy();
      else open.add(res);
      return;
    }
    res.write(body.slice(at, at + 7));
    at += 7;
    setImmediate(step);
  };
  step();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = req.url?.includes('tool') ? tool : text;
      if (req.url?.startsWith('/stall')) send(res, body, Math.floor(body.length / 2), 'stall');
      else if (req.url?.startsWith('/lost')) send(res, body, Math.floor(body.length / 2), 'lost');
      else send(res, body, body.length, 'end');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** createNodeHttpFetch, each call sent to `path` on the test server. */
const to = (path: string): typeof fetch => {
  const nodeFetch = createNodeHttpFetch();
  return (_input, init) => nodeFetch(`${base}${path}`, init);
};

describe('the fast path over createNodeHttpFetch (the body read as a Node stream)', () => {
  it('takes the Node body of a call that wants it, and only before its web body was read', async () => {
    const nodeFetch = createNodeHttpFetch();
    const wanted = await nodeFetch(`${base}/full`, { method: 'POST', body: '{}', [NODE_BODY_WANTED]: true } as RequestInit);
    const body = takeNodeBody(wanted);
    expect(body).not.toBeNull();
    expect(takeNodeBody(wanted)).toBeNull();
    body!.source.resume();
    await new Promise((resolve) => body!.source.once('end', resolve));
    body!.done();
    const plain = await nodeFetch(`${base}/full`, { method: 'POST', body: '{}' });
    expect(takeNodeBody(plain)).toBeNull();
    expect(await plain.text()).toBe(text);
    const read = await nodeFetch(`${base}/full`, { method: 'POST', body: '{}', [NODE_BODY_WANTED]: true } as RequestInit);
    expect(await read.text()).toBe(text);
    expect(takeNodeBody(read)).toBeNull();
  });

  it.each(['/full', '/full/tool'])('%s: the same parts as @ai-sdk/anthropic', async (path) => {
    const [pkg, fast] = await Promise.all([outcome(packageModel(to(path)), eligibleCall()), outcome(fastModel(to(path)), eligibleCall())]);
    expect(fast.parts.length).toBeGreaterThan(3);
    expect(fast.parts.map(comparable)).toStrictEqual(pkg.parts.map(comparable));
    expect(fast.streamError).toBeUndefined();
  });

  it('a connection lost mid-stream errors the stream with the same retryable APICallError', async () => {
    const [pkg, fast] = await Promise.all([outcome(packageModel(to('/lost')), eligibleCall()), outcome(fastModel(to('/lost')), eligibleCall())]);
    expect(errorShape(fast.streamError)).toStrictEqual({ name: 'AI_APICallError', statusCode: 200, isRetryable: true });
    expect(errorShape(fast.streamError)).toStrictEqual(errorShape(pkg.streamError));
    expect(fast.parts.map(comparable)).toStrictEqual(pkg.parts.map(comparable));
  });

  it.each([
    ['an AbortError', undefined, 'AbortError'],
    ['another reason', new Error('stopped'), 'AI_APICallError'],
  ])('an abort mid-stream (%s) errors the stream as the package stream', async (_name, reason, errorName) => {
    const run = async (model: typeof packageModel) => {
      const controller = new AbortController();
      const { stream } = await model(to('/stall')).doStream({ ...eligibleCall(), abortSignal: controller.signal });
      const reader = stream.getReader();
      const parts = [];
      for (let i = 0; i < 3; i++) parts.push((await reader.read()).value);
      setTimeout(() => controller.abort(reason), 20);
      const error = await (async () => {
        try {
          for (;;) if ((await reader.read()).done) return undefined;
        } catch (e) {
          return e;
        }
      })();
      return { parts, error };
    };
    const [pkg, fast] = await Promise.all([run(packageModel), run(fastModel)]);
    expect((fast.error as Error).name).toBe(errorName);
    expect(errorShape(fast.error)).toStrictEqual(errorShape(pkg.error));
    expect((fast.error as Error).message).toBe((pkg.error as Error).message);
    expect(fast.parts.map((p) => comparable(p!))).toStrictEqual(pkg.parts.map((p) => comparable(p!)));
  });
});
