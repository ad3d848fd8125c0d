import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from './test-support/chat-fixture.js';
import { approvalApp, approvalGateway, MODEL_ID, text, toolCalls } from './test-support/approval-gateway.js';

const gateway = approvalGateway();
const server = setupServer(gateway.handler);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('tool approval in a tree chat', () => {
  it('a regenerate that pauses for approval goes on in its own branch; its continuation answers only that path', async () => {
    const app = approvalApp({ history: 'tree' });
    const { chat } = (await (await app.post('/chats', {})).json()) as { chat: { recordId: string } };
    const chatId = chat.recordId;
    const note = await app.store.asCaller({ userId: 'alice' }).create('notes', { title: 'Milk' });

    gateway.queue.push(text(['First answer.']));
    const first = await app.post('/chat', { chatId, userMessageId: 'u1', content: 'delete my note', modelId: MODEL_ID });
    await readSse(first);

    gateway.queue.push(toolCalls([{ id: 'call_del', name: 'records_delete', input: { collection: 'notes', recordId: note.recordId } }]));
    const paused = await app.post('/chat', { chatId, trigger: 'regenerate', modelId: MODEL_ID });
    const asstId = paused.headers.get('x-asst-id');
    expect((await readSse(paused)).chunks.some((c) => c.type === 'data-tool-approval')).toBe(true);

    gateway.queue.push(text(['Deleted.']));
    const before = gateway.requests.length;
    const resumed = await app.post('/chat', { chatId, trigger: 'approval', approvals: [{ toolCallId: 'call_del', approved: true }], modelId: MODEL_ID });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('x-asst-id')).toBe(asstId);
    await readSse(resumed);
    // The continuation's prompt holds the question and the paused step, never the first answer (a sibling).
    expect(JSON.stringify(gateway.requests.slice(before))).not.toContain('First answer.');

    const read = (await (await app.get(`/chats/${chatId}`)).json()) as { messages: Array<{ recordId: string; data: { status?: string }; branch: { index: number; count: number } }> };
    expect(read.messages.map((m) => [m.recordId, m.branch.index, m.branch.count])).toEqual([
      ['u1', 0, 1],
      [asstId, 1, 2],
    ]);
    expect(read.messages[1]!.data.status).toBe('complete');
    expect(await app.store.asServer().find('notes', note.recordId)).toBeNull();
  });
});
