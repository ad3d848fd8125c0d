import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, type ScriptedModel } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

type Message = { recordId: string; data: { role: string; content: string; status?: string }; branch: Record<string, unknown> };

async function turn(f: ChatFixture, body: Record<string, unknown>) {
  const res = await f.request('POST', '/chat', { body });
  expect(res.status).toBe(200);
  const { chunks } = await readSse(res);
  return { id: res.headers.get('x-asst-id')!, start: chunks[0]! };
}

async function read(f: ChatFixture, chatId: string): Promise<Message[]> {
  const res = await f.request('GET', `/chats/${chatId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: Message[] }).messages;
}

const contents = (messages: Message[]) => messages.map((m) => m.data.content);
/** The text of every message the model was sent in call `i`, system prompt left out. */
const promptOf = (scripted: ScriptedModel, i: number) =>
  scripted.calls[i]!.prompt.filter((m) => m.role !== 'system').map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : '')).join('')));

for (const backend of storeBackends('branches')) {
  describe.skipIf(backend.skipReason)(`tree history through the handler on ${backend.name} ${backend.skipReason}`, () => {
    afterAll(() => backend.close());
    const tree = (model: ScriptedModel) => chatFixture(model.model, { driver: backend.driver(), handler: { history: 'tree' } });

    it('regenerate and edit add siblings, switch moves the path, each branch prompts its own path, delete removes all', async () => {
      const scripted = scriptedModel(['A1', 'A2', 'A2b', 'E', 'A3'].map((text) => textStep(text)));
      const f = tree(scripted);
      const chatId = await f.createChat('alice');
      const a1 = await turn(f, { chatId, userMessageId: 'u1', content: 'one' });
      expect(a1.start).toEqual({ type: 'start', messageId: a1.id, messageMetadata: expect.objectContaining({ branch: { parentId: 'u1', index: 0, count: 1, prevId: null, nextId: null } }) });
      const a2 = await turn(f, { chatId, userMessageId: 'u2', content: 'two' });

      const a2b = await turn(f, { chatId, trigger: 'regenerate' });
      expect(promptOf(scripted, 2)).toEqual(['one', 'A1', 'two']);
      expect(a2b.start.messageMetadata).toEqual({ branch: { parentId: 'u2', index: 1, count: 2, prevId: a2.id, nextId: null } });
      let path = await read(f, chatId);
      expect(path.map((m) => m.recordId)).toEqual(['u1', a1.id, 'u2', a2b.id]);
      expect(path[3]!.branch).toEqual({ parentId: 'u2', index: 1, count: 2, prevId: a2.id, nextId: null });
      expect(path[0]!.branch).toEqual({ parentId: null, index: 0, count: 1, prevId: null, nextId: null });
      expect(path[0]!.data).not.toHaveProperty('parentId');

      const edit = await turn(f, { chatId, trigger: 'edit', userMessageId: 'u2', content: 'two, edited' });
      expect(promptOf(scripted, 3)).toEqual(['one', 'A1', 'two, edited']);
      const meta = edit.start.messageMetadata as { branch: unknown; userMessage: { id: string; branch: unknown } };
      const e = meta.userMessage.id;
      expect(e).not.toBe('u2');
      expect(meta.userMessage.branch).toEqual({ parentId: a1.id, index: 1, count: 2, prevId: 'u2', nextId: null });
      path = await read(f, chatId);
      expect(path.map((m) => m.recordId)).toEqual(['u1', a1.id, e, edit.id]);
      expect(contents(path)).toEqual(['one', 'A1', 'two, edited', 'E']);
      expect(path[2]!.branch).toEqual({ parentId: a1.id, index: 1, count: 2, prevId: 'u2', nextId: null });

      // Nothing was deleted or rewritten: the edited message keeps its content.
      const rows = await f.rows('ai-messages');
      expect(rows).toHaveLength(7);
      expect(rows.find((r) => r.recordId === 'u2')!.data.content).toBe('two');

      // Switching to the first version of the question shows its newest answer; then its first answer.
      const switched = await f.request('POST', `/chats/${chatId}/active`, { body: { messageId: 'u2' } });
      expect(switched.status).toBe(200);
      const body = (await switched.json()) as { chat: { recordId: string }; messages: Message[] };
      expect(body.chat.recordId).toBe(chatId);
      expect(body.messages.map((m) => m.recordId)).toEqual(['u1', a1.id, 'u2', a2b.id]);
      expect(body.messages[2]!.branch).toEqual({ parentId: a1.id, index: 0, count: 2, prevId: null, nextId: e });
      await f.request('POST', `/chats/${chatId}/active`, { body: { messageId: a2.id } });
      expect((await read(f, chatId)).map((m) => m.recordId)).toEqual(['u1', a1.id, 'u2', a2.id]);

      // A submit goes under the active leaf and answers that path only; a reload reads the same path.
      const a3 = await turn(f, { chatId, userMessageId: 'u3', content: 'three' });
      expect(promptOf(scripted, 4)).toEqual(['one', 'A1', 'two', 'A2', 'three']);
      expect(contents(await read(f, chatId))).toEqual(['one', 'A1', 'two', 'A2', 'three', 'A3']);
      expect((await f.rows('ai-messages')).find((r) => r.recordId === 'u3')!.data.parentId).toBe(a2.id);
      expect((await f.rows('ai-chats'))[0]!.data.activeLeafId).toBe(a3.id);
      expect((await f.rows('ai-turns')).find((r) => r.recordId === edit.id)!.data.userMessageId).toBe(e);

      const deleted = await f.request('DELETE', `/chats/${chatId}`);
      expect(await deleted.json()).toEqual({ deleted: { chatId, messages: 9 } });
      expect(await f.rows('ai-messages')).toEqual([]);
      expect(await f.rows('ai-turns')).toEqual([]);
    });

    it('stop keeps its partial answer as a sibling; a failed regenerate writes nothing', async () => {
      const paused = scriptedModel([textStep('First answer'), textStep('Second answer here')]);
      const f = tree(paused);
      const chatId = await f.createChat('alice');
      const first = await turn(f, { chatId, userMessageId: 'u1', content: 'hi' });
      // Part 7 over both calls: inside the regenerated answer.
      paused.pauseAt(7);
      const res = await f.request('POST', '/chat', { body: { chatId, trigger: 'regenerate' } });
      const streamed = readSse(res);
      await paused.emitted(7);
      expect(await (await f.request('POST', `/chats/${chatId}/stop`)).json()).toEqual({ stopped: true });
      paused.release();
      await streamed;
      const path = await read(f, chatId);
      expect(path.map((m) => [m.recordId, m.data.status ?? null])).toEqual([
        ['u1', null],
        [res.headers.get('x-asst-id'), 'stopped'],
      ]);
      expect(path[1]!.branch).toMatchObject({ index: 1, count: 2, prevId: first.id });

      const failing = scriptedModel([textStep('never')], { failAfter: 1, failWith: new Error('provider down') });
      const g = chatFixture(failing.model, { driver: f.store.driver, handler: { history: 'tree' } });
      const before = await f.rows('ai-messages');
      const { chunks } = await readSse(await g.request('POST', '/chat', { body: { chatId, trigger: 'regenerate' } }));
      expect(chunks.some((c) => c.type === 'error')).toBe(true);
      expect(await f.rows('ai-messages')).toEqual(before);
      expect((await read(g, chatId)).map((m) => m.recordId)).toEqual(path.map((m) => m.recordId));
    });

    it('a first turn that creates its chat (createChatOnFirstTurn) starts the tree', async () => {
      const f = chatFixture(scriptedModel([textStep('A1'), textStep('A1b')]).model, { driver: backend.driver(), handler: { history: 'tree', createChatOnFirstTurn: true } });
      const chatId = crypto.randomUUID();
      const a1 = await turn(f, { chatId, userMessageId: 'u1', content: 'hi' });
      expect((await f.rows('ai-chats'))[0]!.data.activeLeafId).toBe(a1.id);
      expect((await f.rows('ai-messages')).find((r) => r.recordId === 'u1')!.data.parentId).toBeNull();
      const a1b = await turn(f, { chatId, trigger: 'regenerate' });
      expect((await read(f, chatId)).map((m) => [m.recordId, m.branch.index, m.branch.count])).toEqual([
        ['u1', 0, 1],
        [a1b.id, 1, 2],
      ]);
    });

    it('a share link of a tree chat copies its active path only', async () => {
      const scripted = scriptedModel([textStep('first'), textStep('second')]);
      const f = chatFixture(scripted.model, { driver: backend.driver(), handler: { history: 'tree', sharing: true } });
      const chatId = await f.createChat('alice');
      await turn(f, { chatId, userMessageId: 'u1', content: 'hi' });
      await turn(f, { chatId, trigger: 'regenerate' });
      const created = (await (await f.request('POST', `/chats/${chatId}/shares`, { body: {} })).json()) as { url: string };
      const shared = await f.handler(new Request(`http://localhost/api/ai/shared/${created.url.split('/').pop()}`));
      const body = (await shared.json()) as { messages: Array<{ content?: string; parts?: unknown }> };
      expect(JSON.stringify(body.messages)).toContain('second');
      expect(JSON.stringify(body.messages)).not.toContain('first');
      expect(body.messages).toHaveLength(2);
    });

    it('a chat stored as linear history reads as one path, and grows branches from it', async () => {
      const scripted = scriptedModel([textStep('A1'), textStep('A2'), textStep('A2b')]);
      const driver = backend.driver();
      const linear = chatFixture(scripted.model, { driver });
      const chatId = await linear.createChat('alice');
      const a1 = await turn(linear, { chatId, userMessageId: 'u1', content: 'one' });
      const a2 = await turn(linear, { chatId, userMessageId: 'u2', content: 'two' });
      expect((await linear.rows('ai-messages')).every((r) => !('parentId' in r.data))).toBe(true);

      const f = chatFixture(scripted.model, { driver, handler: { history: 'tree' } });
      const path = await read(f, chatId);
      expect(path.map((m) => [m.recordId, m.branch.parentId, m.branch.count])).toEqual([
        ['u1', null, 1],
        [a1.id, 'u1', 1],
        ['u2', a1.id, 1],
        [a2.id, 'u2', 1],
      ]);
      const a2b = await turn(f, { chatId, trigger: 'regenerate', userMessageId: 'u2' });
      expect((await read(f, chatId)).at(-1)).toMatchObject({ recordId: a2b.id, branch: { index: 1, count: 2, prevId: a2.id } });
    });
  });
}
