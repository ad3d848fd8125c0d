import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, parseSse, readBytes, waitFor } from './chat-client.js';
import { scratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { spawnChildServer, type ChildServer } from './spawn-child-server.js';

const databaseUrl = process.env.CHATWIRE_TEST_DATABASE_URL;
const skip = databaseUrl ? '' : '(skipped: CHATWIRE_TEST_DATABASE_URL not set)';
const PREFIX = `cw_xpt_${process.pid}_`;
const APP = `${PREFIX}server`;

describe.skipIf(skip !== '')(`pg_terminate_backend on a turn's save through the chat handler ${skip}`, () => {
  let db: ScratchDatabase;
  let server: ChildServer;
  const alice = chatClient('alice');

  beforeAll(async () => {
    db = scratchDatabase(databaseUrl!, PREFIX);
    server = await spawnChildServer(
      { CW_DATABASE_URL: databaseUrl!, CW_TABLE_PREFIX: PREFIX, CW_APP_NAME: APP, CW_WORDS: '3', CW_DELAY_MS: '10' },
      { startTimeoutMs: 90_000 },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.kill();
    await db.drop();
  });

  it('the process stays up, the stream ends with an error chunk, nothing is stored, and the next turn succeeds', { timeout: 60_000 }, async () => {
    const chatId = await alice.createChat(server.base);
    // Another connection locks the chat row, so the save's update of the chat waits on it.
    let unlock!: () => void;
    const unlocked = new Promise<void>((resolve) => (unlock = resolve));
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.sql.transaction(async (client) => {
      await client.query(`SELECT 1 FROM ${db.records} WHERE collection = 'ai-chats' AND record_id = $1 FOR UPDATE`, [chatId]);
      locked();
      await unlocked;
    });
    await lockHeld;
    const response = await alice.submit(server.base, chatId, `u1-${chatId}`);
    expect(response.status).toBe(200);
    const body = readBytes(response);
    let ended = false;
    void body.done.then(() => (ended = true));
    // Terminate every backend of the server that waits on the lock (the save, and its retry) until the stream ends.
    let terminated = 0;
    await waitFor(
      async () => {
        for (const pid of await db.backends(APP, { waitingOnLock: true })) if (await db.terminate(pid)) terminated++;
        return ended;
      },
      30_000,
      'the stream to end',
      50,
    );
    unlock();
    await holder;
    expect(terminated).toBeGreaterThan(0);
    const { chunks, done } = parseSse(body.text());
    expect(done).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ type: 'error' });
    expect(server.exit).toBeNull();
    expect(await db.rows('ai-messages', chatId)).toEqual([]);
    expect(await db.rows('ai-turns', chatId)).toEqual([]);
    expect(server.stderr.some((line) => line.startsWith('onError'))).toBe(true);

    const next = await alice.submit(server.base, chatId, `u2-${chatId}`);
    expect(next.status).toBe(200);
    const nextBody = readBytes(next);
    await nextBody.done;
    expect(parseSse(nextBody.text()).chunks.at(-1)).toMatchObject({ type: 'finish' });
    const messages = await db.rows('ai-messages', chatId);
    expect(messages.map((m) => [m.data.role, m.data.content])).toEqual([
      ['user', 'Hello'],
      ['assistant', 'w1 w2 w3 '],
    ]);
    expect(server.exit).toBeNull();
  });
});
