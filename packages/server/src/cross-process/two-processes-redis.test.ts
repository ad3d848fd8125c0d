import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, parseSse, readBytes, waitFor } from './chat-client.js';
import { scratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { spawnChildServer, type ChildServer } from './spawn-child-server.js';

const databaseUrl = process.env.CHATWIRE_TEST_DATABASE_URL;
const redisUrl = process.env.CHATWIRE_TEST_REDIS_URL;
const skip = !databaseUrl
  ? '(skipped: CHATWIRE_TEST_DATABASE_URL not set)'
  : !redisUrl
    ? '(skipped: CHATWIRE_TEST_REDIS_URL not set)'
    : '';
const PREFIX = `cw_xpr_${process.pid}_`;
const TTL_MS = 2_000;

describe.skipIf(skip !== '')(`two server processes on one PostgreSQL and one Redis ${skip}`, () => {
  let db: ScratchDatabase;
  const children: ChildServer[] = [];
  const start = async (name: string) => {
    const child = await spawnChildServer(
      {
      CW_DATABASE_URL: databaseUrl!,
      CW_TABLE_PREFIX: PREFIX,
      CW_APP_NAME: `${PREFIX}${name}`,
      CW_REDIS_URL: redisUrl!,
      CW_REDIS_PREFIX: `${PREFIX}:`,
      CW_LEASE_TTL_MS: String(TTL_MS),
      CW_WORDS: '60',
      CW_DELAY_MS: '50',
      },
      { startTimeoutMs: 90_000 },
    );
    children.push(child);
    return child;
  };
  // Starting a child costs seconds on a busy machine: all of them start once, together; the tests that
  // kill or freeze a process have an A of their own.
  let a: ChildServer, b: ChildServer, aToKill: ChildServer, aToFreeze: ChildServer;
  let readerEndedAfterMs = -1;
  const alice = chatClient('alice');

  beforeAll(async () => {
    db = scratchDatabase(databaseUrl!, PREFIX);
    [a, b, aToKill, aToFreeze] = await Promise.all([start('a'), start('b'), start('a-kill'), start('a-freeze')]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(children.splice(0).map((child) => (child.signal('SIGCONT'), child.kill())));
    await db.drop();
  });

  it('a stop sent to B ends the turn running on A within a second and stores the partial pair', { timeout: 30_000 }, async () => {
    const chatId = await alice.createChat(a.base);
    const response = await alice.submit(a.base, chatId, `u1-${chatId}`);
    expect(response.status).toBe(200);
    const body = readBytes(response);
    await waitFor(() => body.text().includes('"w3 "'), 10_000, 'three words on A');
    const asked = Date.now();
    const stop = await alice.request(b.base, 'POST', `/chats/${chatId}/stop`);
    expect(await stop.json()).toEqual({ stopped: true });
    await body.done;
    expect(Date.now() - asked).toBeLessThan(1_000);
    const { chunks, done } = parseSse(body.text());
    expect(done).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
    const messages = await db.rows('ai-messages', chatId);
    expect(messages.map((m) => m.data.role)).toEqual(['user', 'assistant']);
    expect(messages[1]!.data.status).toBe('stopped');
    expect(messages[1]!.data.content).toMatch(/^w1 w2 w3 /);
    expect(messages[1]!.data.content).not.toContain('w60');
    const turns = await db.rows('ai-turns', chatId);
    expect(turns.map((t) => t.data.finishReason)).toEqual(['stopped']);
  });

  it("a resume on B of a turn running on A returns A's bytes exactly", { timeout: 30_000 }, async () => {
    const chatId = await alice.createChat(a.base);
    const response = await alice.submit(a.base, chatId, `u1-${chatId}`);
    expect(response.status).toBe(200);
    const original = readBytes(response);
    await waitFor(() => original.text().includes('"w5 "'), 10_000, 'five words on A');
    const resumed = await alice.request(b.base, 'GET', `/chats/${chatId}/stream`);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('x-asst-id')).toBe(response.headers.get('x-asst-id'));
    const copy = readBytes(resumed);
    await Promise.all([original.done, copy.done]);
    expect(parseSse(original.text()).done).toBe(true);
    expect(Buffer.from(copy.bytes()).equals(Buffer.from(original.bytes()))).toBe(true);
  });

  it("killing A mid-turn gives B's reader A's bytes, an error chunk and [DONE], and frees the chat within the TTL", { timeout: 30_000 }, async () => {
    const a = aToKill;
    const chatId = await alice.createChat(a.base);
    const response = await alice.submit(a.base, chatId, `u1-${chatId}`);
    expect(response.status).toBe(200);
    const original = readBytes(response);
    await waitFor(() => original.text().includes('"w5 "'), 10_000, 'five words on A');
    const resumed = await alice.request(b.base, 'GET', `/chats/${chatId}/stream`);
    expect(resumed.status).toBe(200);
    const copy = readBytes(resumed);
    await waitFor(() => copy.text().includes('"w6 "'), 10_000, 'six words on B');
    await a.kill();
    const killed = Date.now();
    // The chat is free again within the lease TTL (polled while B's reader is still waiting).
    let freeAfterMs = -1;
    const free = waitFor(
      async () => {
        const next = await alice.submit(b.base, chatId, `u2-${Date.now()}`);
        await next.body?.cancel();
        if (next.status === 200) freeAfterMs = Date.now() - killed;
        return next.status === 200;
      },
      TTL_MS + 2_000,
      'POST /chat on B to answer 200',
      100,
    );
    await original.done;
    const sentByA = Buffer.from(original.bytes());
    await copy.done;
    readerEndedAfterMs = Date.now() - killed;
    const copied = Buffer.from(copy.bytes());
    expect(copied.subarray(0, sentByA.length).equals(sentByA)).toBe(true);
    const { chunks, done } = parseSse(copy.text());
    expect(done).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ type: 'error' });
    await free;
    expect(freeAfterMs).toBeLessThan(TTL_MS + 1_500);
    // B's reader learns of the crash from the Redis hub's liveness key (its own TTL, 10 s by default,
    // not the lease TTL): bounded, but not by the lease.
    expect(readerEndedAfterMs).toBeLessThan(15_000);
    expect(b.exit).toBeNull();
  });

  // Measured by the test above: the Redis hub's liveness key follows the lease TTL (2 s here), so the reader
  // learns of the death when the chat is freed.
  it(
    "B's reader of a killed turn ends within the lease TTL",
    () => {
      expect(readerEndedAfterMs).toBeGreaterThan(0);
      expect(readerEndedAfterMs).toBeLessThan(TTL_MS + 1_500);
    },
  );

  it('a process frozen past the TTL while another stores a newer turn stores nothing and ends its stream with an error', { timeout: 40_000 }, async () => {
    const a = aToFreeze;
    const chatId = await alice.createChat(a.base);
    const frozen = readBytes(await alice.submit(a.base, chatId, `u-frozen-${chatId}`, 'Frozen question'));
    await waitFor(() => frozen.text().includes('"w3 "'), 10_000, 'three words on A');
    a.signal('SIGSTOP');
    let newer: Response | null = null;
    await waitFor(
      async () => {
        const next = await alice.submit(b.base, chatId, `u-newer-${Date.now()}`, 'Newer question');
        if (next.status === 200) newer = next;
        else await next.body?.cancel();
        return next.status === 200;
      },
      TTL_MS + 3_000,
      'the chat to be free on B',
      100,
    );
    const newerBody = readBytes(newer!);
    await newerBody.done;
    expect(parseSse(newerBody.text()).chunks.at(-1)).toMatchObject({ type: 'finish' });
    a.signal('SIGCONT');
    await frozen.done;
    const { chunks, done } = parseSse(frozen.text());
    expect(done).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ type: 'error' });
    // Give A's turn time to try its save, then check it wrote nothing: one pair, the newer one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const messages = await db.rows('ai-messages', chatId);
    expect(messages.map((m) => [m.data.role, String(m.data.content).slice(0, 14)])).toEqual([
      ['user', 'Newer question'],
      ['assistant', 'w1 w2 w3 w4 w5'],
    ]);
    expect((await db.rows('ai-turns', chatId)).length).toBe(1);
    expect(a.exit).toBeNull();
  });
});
