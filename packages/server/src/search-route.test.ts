import { AI_CHATS, AI_MESSAGES } from '@chatwire/core';
import { createPostgresDriver } from '@chatwire/postgres';
import { encodeSearchCursor, type StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SEARCH_RESPONSE } from './openapi/search-openapi.js';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const url = process.env.CHATWIRE_TEST_DATABASE_URL;
const schema = `cw_search_${process.pid}_${Date.now().toString(36)}`;
const pool = url ? new pg.Pool({ connectionString: url, max: 6 }) : null;
afterAll(async () => {
  await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool?.end();
});

let prefix = 0;
const backends: { name: string; skip: boolean; driver: () => StoreDriver }[] = [
  { name: 'memory', skip: false, driver: () => createMemoryDriver() },
  {
    name: `PostgreSQL${url ? '' : ' (skipped: CHATWIRE_TEST_DATABASE_URL not set)'}`,
    skip: !url,
    driver: () => createPostgresDriver({ pool: pool!, schema, tablePrefix: `s${++prefix}_` }),
  },
];

/** A real page cursor whose driver cursor holds a seq 19 digits long, past the bigint range. */
function forgedSeq(cursor: string): string {
  const envelope = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { q: string; c: string };
  const forged = { ...envelope, c: encodeSearchCursor({ rank: 1, seq: '9999999999999999999' }) };
  return Buffer.from(JSON.stringify(forged)).toString('base64url');
}

async function search(f: ChatFixture, query: string, user = 'alice') {
  const res = await f.request('GET', `/search?${query}`, { user });
  expect(res.status, await res.clone().text()).toBe(200);
  return SEARCH_RESPONSE.parse(await res.json());
}

/** One stored turn: the user's message and the scripted answer; returns the assistant message id. */
async function turn(f: ChatFixture, user: string, chatId: string, userMessageId: string, content: string): Promise<string> {
  const res = await f.request('POST', '/chat', { user, body: { chatId, userMessageId, content } });
  expect(res.status).toBe(200);
  expect((await readSse(res)).done).toBe(true);
  return res.headers.get('x-asst-id')!;
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`GET /search on ${backend.name}`, () => {
    it('finds a stored turn by words in any order, accents and case ignored, with the ids the client knows', async () => {
      const scripted = scriptedModel([textStep('Try the crème brûlée at a café near the Louvre.'), textStep('Bring a coat.')]);
      const f = chatFixture(scripted.model, { driver: backend.driver() });
      const chatId = await f.createChat('alice', 'Trip to Paris');
      const asst = await turn(f, 'alice', chatId, 'u1', 'What should I eat in Paris?');
      const { results, nextCursor } = await search(f, 'q=BRULEE%20creme');
      expect(nextCursor).toBeNull();
      expect(results).toEqual([
        {
          chatId,
          chatTitle: 'Trip to Paris',
          messageId: asst,
          role: 'assistant',
          createdAt: expect.any(String),
          snippet: 'Try the crème brûlée at a café near the Louvre.',
          highlights: [
            { start: 8, end: 13 },
            { start: 14, end: 20 },
          ],
        },
      ]);
      // Ranked, then newest: the message holding "paris" twice first, then the newer one, then the title.
      await turn(f, 'alice', chatId, 'u2', 'Paris in winter: is Paris cold?');
      const paris = await search(f, 'q=paris');
      expect(paris.results.map((r) => [r.messageId, r.role])).toEqual([
        ['u2', 'user'],
        ['u1', 'user'],
        [null, null],
      ]);
      expect((await search(f, 'q=%22in%20winter%22')).results.map((r) => r.messageId)).toEqual(['u2']);
      expect((await search(f, 'q=%22winter%20in%22')).results).toEqual([]);
      expect((await search(f, 'q=paris%20-cold')).results.map((r) => r.messageId)).toEqual(['u1', null]);
      expect(f.errors).toEqual([]);
    });

    it("covers only the caller's own chats; a user message stored under an owner-scoped id shows the client's id", async () => {
      const f = chatFixture(scriptedModel([textStep('Noted.'), textStep('Noted too.')]).model, { driver: backend.driver() });
      const alices = await f.createChat('alice', 'Secret plans');
      await turn(f, 'alice', alices, 'same-id', 'The launch code is walrus');
      const bobs = await f.createChat('bob', 'Bob notes');
      await turn(f, 'bob', bobs, 'same-id', 'My walrus drawing');
      const bob = await search(f, 'q=walrus', 'bob');
      expect(bob.results.map((r) => [r.chatId, r.messageId])).toEqual([[bobs, 'same-id']]);
      const stored = (await f.rows(AI_MESSAGES)).filter((row) => row.data.userId === 'bob' && row.data.role === 'user');
      expect(stored[0]?.recordId).not.toBe('same-id'); // alice holds that recordId
      expect((await search(f, 'q=secret', 'bob')).results).toEqual([]);
      expect((await f.request('GET', `/search?q=walrus&chatId=${alices}`, { user: 'bob' })).status).toBe(404);
      expect((await search(f, `q=walrus&chatId=${alices}`)).results.map((r) => r.messageId)).toEqual(['same-id']);
    });

    it("answers a malformed chatId as a chat that is not the caller's: 404 NOT_FOUND, no store field named", async () => {
      const f = chatFixture(scriptedModel([]).model, { driver: backend.driver() });
      const bobs = await f.createChat('bob', 'Paris notes');
      const answer = async (chatId: string) => {
        const res = await f.request('GET', `/search?q=paris&chatId=${encodeURIComponent(chatId)}`);
        return { status: res.status, body: await res.json() };
      };
      const notFound = (chatId: string) => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: `Chat "${chatId}" not found` } } });
      expect(await answer(bobs)).toEqual(notFound(bobs));
      for (const chatId of ['', '\0', 'a/b', 'x'.repeat(10_000), 'a b', 'é']) {
        expect(await answer(chatId), JSON.stringify(chatId.slice(0, 20))).toEqual(notFound(chatId));
      }
      expect(f.errors).toEqual([]);
    });

    it("reads a page's chat titles in one lookup; a hit in another user's chat is left out, its title never shown", async () => {
      const calls: string[] = [];
      const inner = backend.driver();
      const counted: StoreDriver = new Proxy(inner, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if ((prop === 'get' || prop === 'getMany') && typeof value === 'function') {
            return (collection: string, ...rest: unknown[]) => {
              if (collection === AI_CHATS) calls.push(prop);
              return (value as (...args: unknown[]) => unknown).call(target, collection, ...rest);
            };
          }
          return value;
        },
      });
      const f = chatFixture(scriptedModel([]).model, { driver: counted });
      const server = f.store.asServer();
      const mine: Record<string, string> = {};
      for (const title of ['Birds', 'Lakes', 'Heron at dusk']) {
        const chatId = await f.createChat('alice', title);
        mine[chatId] = title;
        await server.create(AI_MESSAGES, { chatId, userId: 'alice', role: 'user', content: `a grey heron in ${title}` });
      }
      const bobs = await f.createChat('bob', 'Bob heron diary');
      await server.create(AI_MESSAGES, { chatId: bobs, userId: 'bob', role: 'user', content: 'heron heron heron' });
      // Alice's own message row pointing at Bob's chat (a row no route writes): found by the search, yet its chat is not hers.
      await server.create(AI_MESSAGES, { chatId: bobs, userId: 'alice', role: 'user', content: 'heron in a chat that is not mine' });

      calls.length = 0;
      const { results } = await search(f, 'q=heron&limit=50');
      expect(results.map((r) => [r.chatId, r.chatTitle]).sort()).toEqual(
        [...Object.entries(mine), ...Object.entries(mine).filter(([, title]) => title.includes('Heron'))].sort(),
      );
      expect(JSON.stringify(results)).not.toContain('Bob');
      expect(calls).toEqual(typeof inner.getMany === 'function' ? ['getMany'] : ['get', 'get', 'get', 'get']);
      calls.length = 0;
      expect((await search(f, 'q=nothinglikethis')).results).toEqual([]);
      expect(calls.filter((c) => c === 'get')).toEqual([]);
    });

    it('pages with nextCursor; bad input is a 400 JSON error, never a 500', async () => {
      const f = chatFixture(scriptedModel([]).model, { driver: backend.driver() });
      for (let i = 0; i < 5; i++) await f.createChat('alice', `Walrus ${i}`);
      const first = await search(f, 'q=walrus&limit=2');
      const second = await search(f, `q=walrus&limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
      const third = await search(f, `q=walrus&limit=2&cursor=${encodeURIComponent(second.nextCursor!)}`);
      expect([...first.results, ...second.results, ...third.results].map((r) => r.chatTitle)).toEqual(
        ['Walrus 4', 'Walrus 3', 'Walrus 2', 'Walrus 1', 'Walrus 0'],
      );
      expect(third.nextCursor).toBeNull();
      const bad = ['', 'q=', 'q=%20%20', `q=${'a'.repeat(257)}`, 'q=%22%22%20-%20or%20--', 'q=-walrus', 'q=walrus&limit=0', 'q=walrus&limit=51',
        'q=walrus&limit=ten', 'q=walrus&cursor=nope', `q=walrus&cursor=${first.nextCursor}x`];
      for (const query of bad) {
        const res = await f.request('GET', `/search?${query}`);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION');
      }
      // A seq past the bigint range inside a real cursor's envelope: the same answer on every driver, no database text.
      const forged = await f.request('GET', `/search?q=walrus&limit=2&cursor=${forgedSeq(first.nextCursor!)}`);
      expect({ status: forged.status, body: await forged.json() }).toEqual({
        status: 400,
        body: { error: { code: 'VALIDATION', message: 'malformed search cursor' } },
      });
      expect((await search(f, `q=${encodeURIComponent("!!! & | <-> :* ' walrus")}`)).results).toHaveLength(5);
      expect(f.errors).toEqual([]);
    });

    it('a deleted chat never appears once its DELETE returned, even with searches running alongside', async () => {
      const f = chatFixture(scriptedModel([]).model, { driver: backend.driver() });
      const access = f.store.asServer();
      const chats: string[] = [];
      for (let i = 0; i < 8; i++) {
        const chatId = await f.createChat('alice', `Chat ${i}`);
        for (let m = 0; m < 3; m++) {
          await access.create(AI_MESSAGES, { chatId, userId: 'alice', role: 'user', content: `okapi sighting ${i}.${m}` });
        }
        chats.push(chatId);
      }
      const deleted = new Set<string>();
      let searching = true;
      const searches = (async () => {
        let rounds = 0;
        while (searching || rounds === 0) {
          const gone = new Set(deleted); // deletes that had returned before this search began
          const { results } = await search(f, 'q=okapi&limit=50');
          for (const r of results) expect(gone.has(r.chatId), `chat ${r.chatId} found after its delete returned`).toBe(false);
          rounds++;
        }
        return rounds;
      })();
      for (const chatId of chats) {
        const res = await f.request('DELETE', `/chats/${chatId}`);
        expect(res.status).toBe(200);
        deleted.add(chatId);
        expect((await search(f, 'q=okapi&limit=50')).results.filter((r) => r.chatId === chatId)).toEqual([]);
      }
      searching = false;
      expect(await searches).toBeGreaterThan(0);
      expect((await search(f, 'q=okapi')).results).toEqual([]);
    });

    it('a store without full-text search answers 501 with a JSON error', async () => {
      const plain = createMemoryDriver();
      const f = chatFixture(scriptedModel([]).model, { driver: { ...plain, capabilities: { sharedLeases: false, notifications: true } } });
      const res = await f.request('GET', '/search?q=anything');
      expect(res.status).toBe(501);
      expect(await res.json()).toEqual({ error: { code: 'NOT_IMPLEMENTED', message: expect.stringContaining('full-text search') } });
    });
  });
}
