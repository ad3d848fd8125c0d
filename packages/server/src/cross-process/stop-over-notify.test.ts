import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, parseSse, readBytes, waitFor } from './chat-client.js';
import { scratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { spawnChildServer, type ChildServer } from './spawn-child-server.js';

const databaseUrl = process.env.CHATWIRE_TEST_DATABASE_URL;
const skip = databaseUrl ? '' : '(skipped: CHATWIRE_TEST_DATABASE_URL not set)';
const PREFIX = `cw_xpn_${process.pid}_`;

describe.skipIf(skip !== '')(`a stop across processes on PostgreSQL alone (LISTEN/NOTIFY, no Redis) ${skip}`, () => {
  let db: ScratchDatabase;
  const children: ChildServer[] = [];
  const alice = chatClient('alice');

  beforeAll(async () => {
    db = scratchDatabase(databaseUrl!, PREFIX);
    const start = (name: string) =>
      spawnChildServer(
        { CW_DATABASE_URL: databaseUrl!, CW_TABLE_PREFIX: PREFIX, CW_APP_NAME: `${PREFIX}${name}`, CW_WORDS: '60', CW_DELAY_MS: '50' },
        { startTimeoutMs: 90_000 },
      ).then((child) => (children.push(child), child));
    await Promise.all([start('a'), start('b')]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(children.splice(0).map((child) => child.kill()));
    await db.drop();
  });

  it('a stop sent to B answers {stopped:true} within a second, after A stored the partial pair', { timeout: 30_000 }, async () => {
    const [a, b] = children as [ChildServer, ChildServer];
    const chatId = await alice.createChat(a.base);
    const response = await alice.submit(a.base, chatId, `u1-${chatId}`);
    expect(response.status).toBe(200);
    const body = readBytes(response);
    await waitFor(() => body.text().includes('"w3 "'), 10_000, 'three words on A');
    const asked = Date.now();
    const stop = await alice.request(b.base, 'POST', `/chats/${chatId}/stop`);
    const answeredAfterMs = Date.now() - asked;
    expect(await stop.json()).toEqual({ stopped: true });
    expect(answeredAfterMs).toBeLessThan(1_000);
    // Answered only once the rows are stored.
    const messages = await db.rows('ai-messages', chatId);
    expect(messages.map((m) => m.data.role)).toEqual(['user', 'assistant']);
    expect(messages[1]!.data.status).toBe('stopped');
    expect(messages[1]!.data.content).toMatch(/^w1 w2 w3 /);
    expect((await db.rows('ai-turns', chatId)).map((t) => t.data.finishReason)).toEqual(['stopped']);
    await body.done;
    const { chunks, done } = parseSse(body.text());
    expect(done).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish' });
  });

  it('a stop sent to B when nothing streams answers {stopped:false}', { timeout: 30_000 }, async () => {
    const [a, b] = children as [ChildServer, ChildServer];
    const chatId = await alice.createChat(a.base);
    const stop = await alice.request(b.base, 'POST', `/chats/${chatId}/stop`);
    expect(await stop.json()).toEqual({ stopped: false });
  });
});
