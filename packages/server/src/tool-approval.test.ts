import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from './test-support/chat-fixture.js';
import { approvalApp, approvalGateway, MODEL_ID, text, toolCalls, type ApprovalApp } from './test-support/approval-gateway.js';

const gateway = approvalGateway();
const server = setupServer(gateway.handler);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  gateway.requests.length = 0;
  gateway.queue.length = 0;
});
afterAll(() => server.close());

type Chunk = Record<string, unknown>;

async function setup(app = approvalApp()) {
  const chat = (await (await app.post('/chats', {})).json()) as { chat: { recordId: string } };
  const note = await app.store.asCaller({ userId: 'alice' }).create('notes', { title: 'Milk' });
  return { app, chatId: chat.chat.recordId, noteId: note.recordId };
}

async function submit(app: ApprovalApp, chatId: string, content = 'delete my note', userMessageId = 'u1') {
  const res = await app.post('/chat', { chatId, userMessageId, content, modelId: MODEL_ID });
  return { status: res.status, asstId: res.headers.get('x-asst-id'), ...(await readSse(res)) };
}

async function answer(app: ApprovalApp, chatId: string, approvals: unknown, user = 'alice') {
  const res = await app.post('/chat', { chatId, trigger: 'approval', approvals, modelId: MODEL_ID }, user);
  if (res.headers.get('content-type')?.includes('json')) return { status: res.status, asstId: null, chunks: [] as Chunk[], done: false, body: await res.json() };
  return { status: res.status, asstId: res.headers.get('x-asst-id'), ...(await readSse(res)), body: null };
}

const deleteCall = (noteId: string, id = 'call_del') => ({ id, name: 'records_delete', input: { collection: 'notes', recordId: noteId } });

async function pausedTurn(ctx: Awaited<ReturnType<typeof setup>>, calls: Array<{ id: string; name: string; input: Record<string, unknown> }> = [deleteCall(ctx.noteId)]) {
  gateway.queue.push(toolCalls(calls));
  return submit(ctx.app, ctx.chatId);
}

async function rows(app: ApprovalApp, collection: string) {
  return (await app.store.asServer().query(collection, { limit: 100 })).records;
}

describe('tool approval through the handler (real provider package, msw)', () => {
  it('pauses: the call streams, then data-tool-approval, finish and [DONE]; the row waits, the tool has not run, the chat is free', async () => {
    const ctx = await setup();
    const paused = await pausedTurn(ctx);
    expect(paused.status).toBe(200);
    expect(paused.done).toBe(true);
    const types = paused.chunks.map((c) => c.type);
    expect(types.slice(-4)).toEqual(['tool-input-available', 'finish-step', 'data-tool-approval', 'finish']);
    expect(paused.chunks.at(-2)).toEqual({
      type: 'data-tool-approval',
      id: 'call_del',
      data: { toolCallId: 'call_del', toolName: 'records_delete', input: { collection: 'notes', recordId: ctx.noteId } },
    });
    expect(types).not.toContain('tool-output-available');
    expect(await ctx.app.store.asServer().find('notes', ctx.noteId)).not.toBeNull();

    const [assistant] = (await rows(ctx.app, 'ai-messages')).filter((m) => m.data.role === 'assistant');
    expect(assistant!.recordId).toBe(paused.asstId);
    expect(assistant!.data.status).toBe('awaiting-approval');
    const [turn] = await rows(ctx.app, 'ai-turns');
    expect(turn!.data).toMatchObject({ finishReason: 'tool-calls', steps: 1, pendingApproval: { steps: 1, calls: [{ toolCallId: 'call_del', needsApproval: true }] } });
    // The chat is free: GET shows the waiting message.
    const got = (await (await ctx.app.get(`/chats/${ctx.chatId}`)).json()) as { messages: Array<{ data: { status?: string } }> };
    expect(got.messages.at(-1)!.data.status).toBe('awaiting-approval');
  });

  it('approve: the same assistant message goes on; the call runs as the caller, its output first, then the model; decisions stored', async () => {
    const ctx = await setup();
    const paused = await pausedTurn(ctx);
    gateway.queue.push(text(['Deleted', ' it.']));
    const done = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_del', approved: true }]);
    expect(done.status).toBe(200);
    expect(done.asstId).toBe(paused.asstId);
    expect(done.chunks[0]).toEqual({ type: 'start', messageId: paused.asstId });
    expect(done.chunks[1]).toMatchObject({ type: 'tool-output-available', toolCallId: 'call_del', output: { deleted: true } });
    expect(done.chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('')).toBe('Deleted it.');
    expect(done.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(await ctx.app.store.asServer().find('notes', ctx.noteId)).toBeNull();

    // The model's next step got the call and its result.
    const messages = gateway.requests[1]!.messages as Array<{ role: string; tool_calls?: unknown[]; tool_call_id?: string; content?: string }>;
    expect(messages.find((m) => m.role === 'assistant' && m.tool_calls)).toBeDefined();
    expect(messages.find((m) => m.role === 'tool')).toMatchObject({ tool_call_id: 'call_del' });

    const assistants = (await rows(ctx.app, 'ai-messages')).filter((m) => m.data.role === 'assistant');
    expect(assistants).toHaveLength(1);
    expect(assistants[0]!.data.status).toBe('complete');
    expect(assistants[0]!.data.content).toBe('I will do that.Deleted it.');
    const part = (assistants[0]!.data.parts as Chunk[]).find((p) => p.type === 'tool-records_delete');
    expect(part).toMatchObject({ state: 'output-available', output: { deleted: true } });
    const [turn] = await rows(ctx.app, 'ai-turns');
    expect(turn!.data.pendingApproval ?? null).toBeNull();
    expect(turn!.data).toMatchObject({ steps: 2, finishReason: 'stop', usage: { input: 40, output: 20, total: 60 } });
    expect(turn!.data.approvals).toEqual([
      { toolCallId: 'call_del', toolName: 'records_delete', approved: true, userId: 'alice', decidedAt: expect.any(String), by: 'approval' },
    ]);
  });

  it('deny: the call does not run; its output says the user declined, the model sees it and answers', async () => {
    const ctx = await setup();
    await pausedTurn(ctx);
    gateway.queue.push(text(['OK, kept', ' it.']));
    const done = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_del', approved: false, reason: 'not that one' }]);
    expect(done.status).toBe(200);
    expect(done.chunks[1]).toEqual({
      type: 'tool-output-available',
      toolCallId: 'call_del',
      output: { declined: true, message: 'The user declined this tool call; it did not run.', reason: 'not that one' },
    });
    expect(await ctx.app.store.asServer().find('notes', ctx.noteId)).not.toBeNull();
    const tool = (gateway.requests[1]!.messages as Array<{ role: string; content?: string }>).find((m) => m.role === 'tool');
    expect(tool!.content).toContain('declined');
    const [turn] = await rows(ctx.app, 'ai-turns');
    expect(turn!.data.approvals).toMatchObject([{ toolCallId: 'call_del', approved: false, reason: 'not that one', userId: 'alice' }]);
  });

  it('a step with a call needing approval and one that does not: neither runs before the answer, both run after it', async () => {
    const ctx = await setup();
    const paused = await pausedTurn(ctx, [deleteCall(ctx.noteId), { id: 'call_q', name: 'records_query', input: { collection: 'notes' } }]);
    expect(paused.chunks.filter((c) => c.type === 'data-tool-approval').map((c) => c.id)).toEqual(['call_del']);
    expect(paused.chunks.map((c) => c.type)).not.toContain('tool-output-available');
    gateway.queue.push(text(['Done.']));
    const done = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_del', approved: true }]);
    const outputs = done.chunks.filter((c) => c.type === 'tool-output-available').map((c) => c.toolCallId);
    expect(outputs.sort()).toEqual(['call_del', 'call_q']);
    // The query ran after the approval, in the same step: it no longer sees the deleted note.
    const query = done.chunks.find((c) => c.type === 'tool-output-available' && c.toolCallId === 'call_q') as { output: { records: unknown[] } };
    expect(Array.isArray(query.output.records)).toBe(true);
  });

  it('bad answers: partial 400, unknown 404 APPROVAL_NOT_FOUND, forged 404 (nothing runs), another user 404; then decided 409', async () => {
    const ctx = await setup();
    await pausedTurn(ctx, [deleteCall(ctx.noteId, 'call_a'), deleteCall(ctx.noteId, 'call_b')]);
    const partial = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_a', approved: true }]);
    expect(partial.status).toBe(400);
    expect(partial.body).toMatchObject({ error: { code: 'VALIDATION' } });
    const twice = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_a', approved: true }, { toolCallId: 'call_a', approved: true }]);
    expect(twice.status).toBe(400);
    const forged = await answer(ctx.app, ctx.chatId, [
      { toolCallId: 'call_a', approved: true },
      { toolCallId: 'call_b', approved: true },
      { toolCallId: 'call_forged', approved: true },
    ]);
    expect(forged.status).toBe(404);
    expect(forged.body).toMatchObject({ error: { code: 'APPROVAL_NOT_FOUND' } });
    const mallory = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_a', approved: true }, { toolCallId: 'call_b', approved: true }], 'mallory');
    expect(mallory.status).toBe(404);
    expect(mallory.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const empty = await answer(ctx.app, ctx.chatId, []);
    expect(empty.status).toBe(400);
    expect(await ctx.app.store.asServer().find('notes', ctx.noteId)).not.toBeNull();
    expect(gateway.requests).toHaveLength(1);

    gateway.queue.push(text(['Done.']));
    const ok = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_a', approved: true }, { toolCallId: 'call_b', approved: false }]);
    expect(ok.status).toBe(200);
    const again = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_a', approved: true }, { toolCallId: 'call_b', approved: true }]);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'APPROVAL_DECIDED' } });
    const none = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_zzz', approved: true }]);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ error: { code: 'APPROVAL_NOT_FOUND' } });
  });

  it('a new submit while calls wait declines them: the model sees them declined, and they can no longer be answered', async () => {
    const ctx = await setup();
    const paused = await pausedTurn(ctx);
    gateway.queue.push(text(['Never mind then.']));
    const next = await submit(ctx.app, ctx.chatId, 'actually, keep it', 'u2');
    expect(next.status).toBe(200);
    const prompt = gateway.requests[1]!.messages as Array<{ role: string; content?: string; tool_call_id?: string }>;
    expect(prompt.find((m) => m.role === 'tool')).toMatchObject({ tool_call_id: 'call_del' });
    expect(prompt.find((m) => m.role === 'tool')!.content).toContain('declined');
    expect(await ctx.app.store.asServer().find('notes', ctx.noteId)).not.toBeNull();
    const first = (await rows(ctx.app, 'ai-messages')).find((m) => m.recordId === paused.asstId)!;
    expect(first.data.status).toBe('complete');
    expect((first.data.parts as Chunk[]).find((p) => p.type === 'tool-records_delete')).toMatchObject({ state: 'output-available', output: { declined: true } });
    const late = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_del', approved: true }]);
    expect(late.status).toBe(404);
    expect(late.body).toMatchObject({ error: { code: 'APPROVAL_NOT_FOUND' } });
  });

  it('the step cap counts the whole turn: a turn paused at its fourth step gets one more model call, offered no tool', async () => {
    const ctx = await setup();
    for (let i = 0; i < 3; i++) gateway.queue.push(toolCalls([{ id: `call_l${i}`, name: 'schema_list', input: {} }]));
    gateway.queue.push(toolCalls([deleteCall(ctx.noteId)]));
    const paused = await submit(ctx.app, ctx.chatId);
    expect(paused.chunks.filter((c) => c.type === 'start-step')).toHaveLength(4);
    expect(paused.chunks.at(-2)).toMatchObject({ type: 'data-tool-approval' });
    gateway.queue.push(text(['Done.']));
    await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_del', approved: true }]);
    expect(gateway.requests).toHaveLength(5);
    expect(gateway.requests[4]!.tool_choice).toBe('none');
    const [turn] = await rows(ctx.app, 'ai-turns');
    expect(turn!.data.steps).toBe(5);
  });

  it('a continuation can pause again: a later step asks about a new call; both answers are stored with the turn', async () => {
    const ctx = await setup();
    const second = await ctx.app.store.asCaller({ userId: 'alice' }).create('notes', { title: 'Eggs' });
    const paused = await pausedTurn(ctx);
    gateway.queue.push(toolCalls([deleteCall(second.recordId, 'call_del2')]));
    const again = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_del', approved: true }]);
    expect(again.asstId).toBe(paused.asstId);
    expect(again.chunks.at(-2)).toMatchObject({ type: 'data-tool-approval', id: 'call_del2' });
    const stale = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_del', approved: true }]);
    expect(stale.status).toBe(409);
    gateway.queue.push(text(['Both gone.']));
    const done = await answer(ctx.app, ctx.chatId, [{ toolCallId: 'call_del2', approved: true }]);
    expect(done.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(await ctx.app.store.asServer().find('notes', second.recordId)).toBeNull();
    const [turn] = await rows(ctx.app, 'ai-turns');
    expect((turn!.data.approvals as Array<{ toolCallId: string }>).map((d) => d.toolCallId)).toEqual(['call_del', 'call_del2']);
    expect(turn!.data.steps).toBe(3);
    const assistants = (await rows(ctx.app, 'ai-messages')).filter((m) => m.data.role === 'assistant');
    expect(assistants).toHaveLength(1);
    expect(assistants[0]!.data.status).toBe('complete');
  });
});
