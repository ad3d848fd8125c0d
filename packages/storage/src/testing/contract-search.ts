import { describe, expect, it } from 'vitest';
import { createRecordStore, type RecordStore } from '../create-record-store.js';
import { createMemoryDriver } from '../memory/create-memory-driver.js';
import type { AccessSearchPage } from '../access/run-search.js';
import { expectChatwireError, type ContractContext } from './contract-context.js';
import { BAD_SEARCHES, SEARCH_CASES, SEARCH_CORPUS, searchCollections } from './search-corpus.js';

interface Loaded {
  store: RecordStore;
  messages: string;
  chats: string;
}

async function load(store: RecordStore, messages: string, chats: string): Promise<Loaded> {
  const server = store.asServer();
  for (const [kind, id, userId, chatId, text] of SEARCH_CORPUS) {
    if (kind === 'chat') await server.create(chats, { userId, title: text }, { recordId: id });
    else await server.create(messages, { userId, chatId, content: text }, { recordId: id });
  }
  return { store, messages, chats };
}

function search(at: Loaded, q: unknown, options: { chatId?: string; limit?: number; cursor?: string; userId?: string } = {}) {
  const sources = options.chatId
    ? [{ collection: at.messages, filter: { chatId: options.chatId } }]
    : [{ collection: at.messages }, { collection: at.chats }];
  return at.store
    .asCaller({ userId: options.userId ?? 'ann' })
    .search(sources, q as string, { ...(options.limit ? { limit: options.limit } : {}), ...(options.cursor ? { cursor: options.cursor } : {}) });
}

/** What must be equal between drivers: ids, ranks, snippets and highlights, in order. */
const shape = (page: AccessSearchPage) => page.hits.map((h) => ({ id: h.record.recordId, rank: h.rank, snippet: h.snippet, highlights: h.highlights }));

export function describeSearch(ctx: ContractContext): void {
  describe('full-text search', () => {
    it('is declared by capabilities.fullText together with search()', () => {
      expect(typeof ctx.driver.search === 'function').toBe(ctx.driver.capabilities.fullText === true);
    });

    it('a store without the capability refuses to search with CONFIGURATION', async () => {
      if (ctx.driver.capabilities.fullText) return;
      const at = await load(ctx.store(searchCollections(ctx.collection('sm'), ctx.collection('sc'))), '', '');
      await expectChatwireError(() => search(at, 'paris'), 'CONFIGURATION');
    });

    describe('with the capability (tests pass trivially without it)', () => {
      const capable = () => ctx.driver.capabilities.fullText === true;
      let loaded: Promise<[Loaded, Loaded]> | undefined;
      /** The corpus in the driver under test and in the memory reference, loaded once. */
      const both = () =>
        (loaded ??= (async () => {
          const m = ctx.collection('smsg');
          const c = ctx.collection('schat');
          const defs = searchCollections(m, c);
          return Promise.all([
            load(ctx.store(defs), m, c),
            load(createRecordStore({ driver: createMemoryDriver(), collections: defs }), m, c),
          ]);
        })());

      for (const testCase of SEARCH_CASES) {
        it(`${JSON.stringify(testCase.q)}${testCase.chatId ? ` in ${testCase.chatId}` : ''} → ${JSON.stringify(testCase.expect)}, as the memory driver`, async () => {
          if (!capable()) return;
          const [driver, reference] = await both();
          const options = testCase.chatId ? { chatId: testCase.chatId } : {};
          const got = shape(await search(driver, testCase.q, options));
          expect(got).toEqual(shape(await search(reference, testCase.q, options)));
          if (testCase.expect) expect(got.map((h) => h.id)).toEqual(testCase.expect);
        });
      }

      it('snippets are plain text around the first match, with offsets of every match', async () => {
        if (!capable()) return;
        const [driver] = await both();
        const [hit] = (await search(driver, 'BUDGET appears', {})).hits;
        expect(hit?.record.recordId).toBe('m10');
        expect(hit?.snippet.startsWith('…')).toBe(true);
        expect(hit?.snippet.endsWith('…')).toBe(true);
        expect(hit?.snippet).toContain('then the budget appears after several spaces');
        expect(hit?.highlights.map((h) => hit.snippet.slice(h.start, h.end))).toEqual(['budget', 'appears', 'budget']);
        const [accented] = (await search(driver, 'creme', {})).hits;
        expect(accented?.highlights.map((h) => accented.snippet.slice(h.start, h.end))).toEqual(['crème']);
      });

      it('pages by cursor without duplicates or gaps; a cursor fits only its own search', async () => {
        if (!capable()) return;
        const [driver] = await both();
        const all = (await search(driver, 'paris or budget', {})).hits.map((h) => h.record.recordId);
        const paged: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
          const result = await search(driver, 'paris or budget', { limit: 2, ...(cursor ? { cursor } : {}) });
          paged.push(...result.hits.map((h) => h.record.recordId));
          if (result.nextCursor === null) break;
          cursor = result.nextCursor;
        }
        expect(all.length).toBeGreaterThan(4);
        expect(paged).toEqual(all);
        const first = await search(driver, 'paris', { limit: 1 });
        await expectChatwireError(() => search(driver, 'budget', { limit: 1, cursor: first.nextCursor! }), 'VALIDATION');
        await expectChatwireError(() => search(driver, 'paris', { limit: 1, cursor: first.nextCursor!, userId: 'bob' }), 'VALIDATION');
      });

      for (const bad of BAD_SEARCHES) {
        it(`refuses ${JSON.stringify(bad)?.slice(0, 24)} with VALIDATION`, async () => {
          if (!capable()) return;
          const [driver] = await both();
          await expectChatwireError(() => search(driver, bad), 'VALIDATION', { field: 'q' });
        });
      }

      it('sees writes: an insert, an update and a delete show at once; a rolled-back insert never', async () => {
        if (!capable()) return;
        const m = ctx.collection('swm');
        const c = ctx.collection('swc');
        const at = await load(ctx.store(searchCollections(m, c)), m, c);
        const server = at.store.asServer();
        const ids = async (q: string) => (await search(at, q)).hits.map((h) => h.record.recordId);
        await server.create(m, { userId: 'ann', chatId: 'c1', content: 'zebra crossing' }, { recordId: 'z1' });
        expect(await ids('zebra')).toEqual(['z1']);
        await server.update(m, 'z1', { content: 'giraffe crossing' });
        expect(await ids('zebra')).toEqual([]);
        expect(await ids('giraffe')).toEqual(['z1']);
        await server.delete(m, 'z1');
        expect(await ids('giraffe')).toEqual([]);
        await expect(
          server.transaction(async (tx) => {
            await tx.create(m, { userId: 'ann', chatId: 'c1', content: 'okapi' }, { recordId: 'z2' });
            throw new Error('roll back');
          }),
        ).rejects.toThrow('roll back');
        expect(await ids('okapi')).toEqual([]);
        await server.transaction(async (tx) => {
          await tx.create(m, { userId: 'ann', chatId: 'c1', content: 'okapi' }, { recordId: 'z3' });
        });
        expect(await ids('okapi')).toEqual(['z3']);
      });
    });
  });
}
