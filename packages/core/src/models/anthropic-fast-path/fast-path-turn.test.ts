import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicFixtures } from '../../../../server/src/replay/fixtures/anthropic-messages.js';
import { preparePrompt } from '../../turn/prepare-prompt.js';
import { streamModel } from '../../turn/stream-model.js';
import { chunkTypes, decodeSse, readBytes, streamedText } from '../../turn/testing/sse.js';
import { turnHarness } from '../../turn/testing/turn-harness.js';
import { createProvider } from '../create-provider.js';

/**
 * A whole turn on provider_a over chatwire's default fetch (node:http), fast path on: the answer streams, and a
 * provider that stalls mid-answer is ended by the idle timeout, its connection closed.
 */
const body = anthropicFixtures.find((f) => f.name === 'anthropic: text')!.responses[0]!.body;
let server: Server;
let base: string;
const closed: string[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.url?.startsWith('/stall')) {
        // Everything up to the second text delta, then nothing.
        res.write(body.slice(0, body.indexOf('! How can I')));
        res.on('close', () => closed.push('stall'));
        return;
      }
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function turn(path: string, fastPath: boolean) {
  const model = createProvider({ baseURL: `${base}${path}` }, 'provider_a', { fastPath, authToken: 'caller.jwt' })('claude-sonnet-4-5');
  const h = turnHarness({ firstByteTimeoutMs: 2_000, idleTimeoutMs: 150 });
  const chatId = await h.createChat();
  const t = await h.admit({ chatId, userMessageId: 'u1', content: 'hi' }, model);
  const prompt = await preparePrompt(t, h.runtime);
  const reading = readBytes(t.output.response);
  const outcome = await streamModel(t, prompt, h.runtime);
  await t.output.end();
  await t.lease.release();
  return { outcome, body: decodeSse(await reading) };
}

describe('provider_a fast path in a turn (node:http)', () => {
  it('streams the answer as the package does', async () => {
    const [fast, pkg] = await Promise.all([turn('/v1', true), turn('/v1', false)]);
    expect(streamedText(fast.body)).toBe('Hello! How can I help you today?');
    expect(fast.outcome).toEqual(pkg.outcome);
    expect(chunkTypes(fast.body)).toEqual(chunkTypes(pkg.body));
  });

  it('a provider that stalls mid-answer is ended by the idle timeout, and its connection closed', async () => {
    const fast = await turn('/stall/v1', true);
    expect(fast.outcome).toMatchObject({ kind: 'interrupted', interrupt: 'idle-timeout' });
    expect(streamedText(fast.body)).toBe('Hello');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toContain('stall');
  });
});
