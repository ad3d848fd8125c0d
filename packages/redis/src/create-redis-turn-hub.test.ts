import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from './connect-redis.js';
import { destroyQuietly } from './destroy-quietly.js';
import { createRedisTurnHub, type RedisTurnHub, type RedisTurnHubOptions } from './create-redis-turn-hub.js';
import { ChatwireError } from '@chatwire/storage';
import { connectRedis } from './connect-redis.js';
import {
  connect,
  deleteKeys,
  DONE,
  INTERRUPTED,
  readAll,
  redisUrl,
  skipReason,
  sse,
  text,
  TOO_LONG,
  turnChunks,
  startRedisProxy,
  uniquePrefix,
  waitFor,
} from './test-redis.js';

const decoder = new TextDecoder();

describe.skipIf(skipReason !== '')(`Redis turn hub ${skipReason}`, () => {
  const prefix = uniquePrefix('hub');
  const errors: unknown[] = [];
  const opened: Array<{ hub: RedisTurnHub; client: RedisClient }> = [];
  let admin: RedisClient;
  let chatCounter = 0;
  const newChat = () => `chat-${++chatCounter}`;

  /** A hub on a client of its own: two of them behave like two processes. */
  async function startProcess(options: Partial<RedisTurnHubOptions> = {}) {
    const client = await connect();
    const hub = await createRedisTurnHub({ client, keyPrefix: prefix, onError: (e) => errors.push(e), ...options });
    opened.push({ hub, client });
    return { hub, client };
  }

  beforeAll(async () => {
    admin = await connect();
  });
  afterAll(async () => {
    for (const { hub, client } of opened) {
      await hub.close();
      destroyQuietly(client);
    }
    await deleteKeys(admin, prefix);
    admin.destroy();
  });

  const streamKey = (chatId: string, turnId: string) => `${prefix}:{${chatId}}:turn:${turnId}`;
  const stored = (chatId: string, turnId: string) => async () => (await admin.exists(streamKey(chatId, turnId))) === 1;

  it('answers null for a chat without a turn, and for a turn that ended', async () => {
    const a = await startProcess();
    const b = await startProcess();
    const chat = newChat();
    expect(await b.hub.attach(chat)).toBeNull();
    const writer = a.hub.open(chat, 'turn-1');
    writer.append(sse({ type: 'start' }));
    await waitFor(stored(chat, 'turn-1'));
    expect((await b.hub.attach(chat))?.turnId).toBe('turn-1');
    await writer.end();
    expect(await b.hub.attach(chat)).toBeNull();
    expect(await a.hub.attach(chat)).toBeNull();
  });

  it('replays on another process exactly the bytes the producer appended, then follows them live', async () => {
    const a = await startProcess();
    const b = await startProcess();
    const chat = newChat();
    const chunks = turnChunks(200);
    const writer = a.hub.open(chat, 'turn-1');
    for (const chunk of chunks.slice(0, 100)) writer.append(chunk);
    await waitFor(stored(chat, 'turn-1'));
    const attached = await b.hub.attach(chat);
    expect(attached?.turnId).toBe('turn-1');
    const reader = attached!.stream.getReader();
    let received = '';
    while (received.length < text(chunks.slice(0, 100)).length) received += decoder.decode((await reader.read()).value);
    expect(received).toBe(text(chunks.slice(0, 100)));

    // live: a chunk appended now reaches the waiting reader before the turn ends
    const next = reader.read();
    writer.append(chunks[100]!);
    received += decoder.decode((await next).value);
    expect(received).toBe(text(chunks.slice(0, 101)));

    for (const chunk of chunks.slice(101)) writer.append(chunk);
    await writer.end();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += decoder.decode(value);
    }
    expect(received).toBe(text(chunks));
    expect(b.hub.stats()).toMatchObject({ readers: 0 });
    expect(a.hub.stats()).toMatchObject({ writers: 0 });
  });

  it('gives many readers on two processes, attaching at different times, byte-identical output', async () => {
    const a = await startProcess();
    const b = await startProcess();
    const chat = newChat();
    const chunks = turnChunks(300);
    const writer = a.hub.open(chat, 'turn-1');
    const outputs: Promise<string>[] = [];
    for (const [i, chunk] of chunks.entries()) {
      writer.append(chunk);
      if (i % 50 === 0) {
        await waitFor(stored(chat, 'turn-1'));
        const hub = (i / 50) % 2 === 0 ? a.hub : b.hub;
        const turn = await hub.attach(chat);
        outputs.push(readAll(turn!.stream));
      }
    }
    await writer.end();
    const texts = await Promise.all(outputs);
    expect(texts).toHaveLength(7);
    for (const output of texts) expect(output).toBe(text(chunks));
  });

  it('lets a reader cancel or abort without affecting the producer or other readers', async () => {
    const a = await startProcess();
    const b = await startProcess();
    const chat = newChat();
    const chunks = turnChunks(20);
    const writer = a.hub.open(chat, 'turn-1');
    writer.append(chunks[0]!);
    await waitFor(stored(chat, 'turn-1'));
    const leaving = (await b.hub.attach(chat))!.stream.getReader();
    const controller = new AbortController();
    const aborted = (await b.hub.attach(chat, { signal: controller.signal }))!.stream.getReader();
    const staying = readAll((await b.hub.attach(chat))!.stream);
    await leaving.read();
    await aborted.read();
    const pendingAbort = aborted.read();
    await leaving.cancel();
    controller.abort(new Error('client gone'));
    await expect(pendingAbort).rejects.toThrow('client gone');
    await expect(b.hub.attach(chat, { signal: controller.signal })).rejects.toThrow('client gone');
    for (const chunk of chunks.slice(1)) writer.append(chunk);
    await writer.end();
    expect(await staying).toBe(text(chunks));
    expect(b.hub.stats().readers).toBe(0);
  });

  it('drops bytes past the cap; readers get what fit, then an error chunk and [DONE]', async () => {
    const a = await startProcess({ maxBytesPerTurn: 100 });
    const b = await startProcess();
    const chat = newChat();
    const first = new TextEncoder().encode(`data: ${'x'.repeat(60)}\n\n`);
    const writer = a.hub.open(chat, 'turn-1');
    writer.append(first);
    await waitFor(stored(chat, 'turn-1'));
    const early = readAll((await b.hub.attach(chat))!.stream);
    writer.append(new TextEncoder().encode(`data: ${'y'.repeat(60)}\n\n`));
    writer.append(DONE);
    expect(await early).toBe(decoder.decode(first) + TOO_LONG);
    const late = readAll((await b.hub.attach(chat))!.stream);
    expect(await late).toBe(decoder.decode(first) + TOO_LONG);
    await writer.end();
    const entries = await admin.xRange(streamKey(chat, 'turn-1'), '-', '+');
    expect(entries.map((e) => Object.keys(e.message))).toEqual([['d'], ['c'], ['e']]);
  });

  it('puts a TTL on every key: the running TTL while the turn runs, the ended TTL after', async () => {
    const a = await startProcess({ runningTtlMs: 600_000, endedTtlMs: 60_000, liveTtlMs: 9000 });
    const chat = newChat();
    const writer = a.hub.open(chat, 'turn-1');
    writer.append(sse({ type: 'start' }));
    await waitFor(stored(chat, 'turn-1'));
    const keys = {
      stream: streamKey(chat, 'turn-1'),
      current: `${prefix}:{${chat}}:current`,
      live: `${prefix}:{${chat}}:live:turn-1`,
    };
    expect(await admin.get(keys.current)).toBe('turn-1');
    for (const key of [keys.stream, keys.current]) {
      const ttl = await admin.pTTL(key);
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(600_000);
    }
    const liveTtl = await admin.pTTL(keys.live);
    expect(liveTtl).toBeGreaterThan(0);
    expect(liveTtl).toBeLessThanOrEqual(9000);
    await writer.end();
    for (const key of [keys.stream, keys.current]) {
      const ttl = await admin.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    expect(await admin.pTTL(keys.live)).toBe(-2);
    // every key of the chat has a TTL
    const all: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${prefix}:{${chat}}:*` })) all.push(...batch);
    expect(all.length).toBeGreaterThan(0);
    for (const key of all) expect(await admin.pTTL(key)).toBeGreaterThan(0);
  });

  it('gives readers every byte, then an interrupted error and [DONE], when the producer dies', async () => {
    const liveTtlMs = 1000;
    const a = await startProcess({ liveTtlMs });
    const b = await startProcess({ liveTtlMs });
    const chat = newChat();
    const chunks = turnChunks(30);
    const writer = a.hub.open(chat, 'turn-1');
    for (const chunk of chunks.slice(0, 20)) writer.append(chunk);
    await waitFor(stored(chat, 'turn-1'));
    const attached = readAll((await b.hub.attach(chat))!.stream);
    await waitFor(async () => (await admin.xLen(streamKey(chat, 'turn-1'))) > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // the producing process dies: its connection goes away without an end marker
    a.client.destroy();
    const died = Date.now();
    for (const chunk of chunks.slice(20)) writer.append(chunk);
    expect(await attached).toBe(text(chunks.slice(0, 20)) + INTERRUPTED);
    expect(Date.now() - died).toBeLessThan(liveTtlMs + 1000);
    // a reader attaching later still gets the bytes the dead producer had stored, without a blocking
    // read (which would wait a whole second on a hub with the default liveTtlMs)
    const c = await startProcess();
    const late = await c.hub.attach(chat);
    const attachedLate = Date.now();
    expect(await readAll(late!.stream)).toBe(text(chunks.slice(0, 20)) + INTERRUPTED);
    expect(Date.now() - attachedLate).toBeLessThan(1000);
    expect(c.hub.stats().readerConnections).toBe(0);
  });

  it('survives losing Redis mid-turn: appends never throw, end resolves, errors go to onError, attach rejects clearly', async () => {
    const proxy = await startRedisProxy();
    const lost: unknown[] = [];
    const client = await connectRedis(proxy.url, { onError: (e) => lost.push(e) });
    const hub = await createRedisTurnHub({ client, keyPrefix: prefix, liveTtlMs: 1000, onError: (e) => lost.push(e) });
    const b = await startProcess({ liveTtlMs: 1000 });
    const chat = newChat();
    const chunks = turnChunks(20);
    const writer = hub.open(chat, 'turn-1');
    for (const chunk of chunks.slice(0, 10)) writer.append(chunk);
    await waitFor(stored(chat, 'turn-1'));
    const reader = readAll((await b.hub.attach(chat))!.stream);
    proxy.cut();
    expect(() => {
      for (const chunk of chunks.slice(10)) writer.append(chunk);
    }).not.toThrow();
    await expect(writer.end()).resolves.toBeUndefined();
    const attaching = hub.attach(chat);
    await expect(attaching).rejects.toThrow(/cannot read the running turn of chat "chat-\d+" from Redis/);
    await expect(attaching).rejects.toMatchObject({ code: 'INTERNAL' });
    // the reader on the healthy process gets what was stored, then a clean end
    expect(await reader).toBe(text(chunks.slice(0, 10)) + INTERRUPTED);
    expect(lost.some((e) => ChatwireError.is(e) && e.message.includes('writing turn turn-1 failed'))).toBe(true);
    expect(hub.stats().writers).toBe(0);
    await hub.close();
    destroyQuietly(client);
    await proxy.close();
  });

  it('on close, ends its readers and closes its blocking connections', async () => {
    const a = await startProcess();
    const b = await startProcess();
    const chat = newChat();
    const writer = a.hub.open(chat, 'turn-1');
    writer.append(sse({ type: 'start' }));
    await waitFor(stored(chat, 'turn-1'));
    const reader = (await b.hub.attach(chat))!.stream.getReader();
    await reader.read();
    const pending = reader.read();
    await waitFor(() => b.hub.stats().readerConnections === 1);
    const before = errors.length;
    await b.hub.close();
    expect(decoder.decode((await pending).value)).toBe(INTERRUPTED);
    expect(b.hub.stats()).toEqual({ writers: 0, readers: 0, readerConnections: 0 });
    expect(errors.length).toBe(before);
    expect(await b.hub.attach(chat)).toBeNull();
    await writer.end();
  });

  it('connects by URL, owns that client, and fails at start-up when Redis is unreachable', async () => {
    const hub = await createRedisTurnHub({ url: redisUrl, keyPrefix: prefix });
    expect(await hub.attach(newChat())).toBeNull();
    await hub.close();
    await expect(createRedisTurnHub({ url: 'redis://user:secret@127.0.0.1:1', keyPrefix: prefix })).rejects.toMatchObject({
      code: 'CONFIGURATION',
      message: expect.stringContaining('127.0.0.1:1'),
    });
    await expect(createRedisTurnHub({ keyPrefix: prefix })).rejects.toMatchObject({ code: 'CONFIGURATION' });
    await expect(createRedisTurnHub({ url: 'redis://127.0.0.1:1', keyPrefix: 'has{brace}' })).rejects.toMatchObject({
      code: 'CONFIGURATION',
    });
  });
});
