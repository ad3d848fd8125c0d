import { createPostgresDriver } from '@chatwire/postgres';
import { ChatwireError, createRecordStore } from '@chatwire/storage';
import { withFaults } from '@chatwire/storage/testing';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { setupServer } from 'msw/node';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readSse } from './test-support/chat-fixture.js';
import { approvalApp, approvalGateway, MODEL_ID, text, toolCalls, type Answer, type ApprovalApp } from './test-support/approval-gateway.js';

const gateway = approvalGateway();
const server = setupServer(gateway.handler);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  gateway.requests.length = 0;
  gateway.queue.length = 0;
});
afterAll(() => server.close());

type Chunk = Record<string, unknown>;

/** A custom tool that needs approval and counts its runs. */
function purgeTool() {
  const runs: string[] = [];
  const tool = {
    description: 'Purges a note.',
    inputSchema: z.object({ title: z.string() }),
    needsApproval: true as const,
    execute: async ({ title }: { title: string }) => {
      runs.push(title);
      return { purged: title };
    },
  };
  return { runs, tools: { custom: { 'notes.purge': tool } } };
}

const purgeCall = { id: 'call_purge', name: 'notes_purge', input: { title: 'Milk' } };

async function pause(app: ApprovalApp) {
  const chatId = ((await (await app.post('/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
  gateway.queue.push(toolCalls([purgeCall]));
  const res = await app.post('/chat', { chatId, userMessageId: 'u1', content: 'purge Milk', modelId: MODEL_ID });
  const { chunks } = await readSse(res);
  expect(chunks.at(-2)).toMatchObject({ type: 'data-tool-approval', id: 'call_purge' });
  return { chatId, asstId: res.headers.get('x-asst-id')! };
}

const approve = (app: ApprovalApp, chatId: string) =>
  app.post('/chat', { chatId, trigger: 'approval', approvals: [{ toolCallId: 'call_purge', approved: true }], modelId: MODEL_ID });

/** A text answer that sends its first words, then waits for `release` before the rest. */
function heldText(): { answer: Answer; release: () => void; started: Promise<void> } {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const answer: Answer = async (body, request) => {
    const full = await (await text(['Purged', ' it', ' for you.'])(body, request)).text();
    const events = full.split('\n\n').filter(Boolean);
    const encoder = new TextEncoder();
    return new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const event of events.slice(0, 2)) controller.enqueue(encoder.encode(`${event}\n\n`));
          started();
          // The provider call is aborted when the turn stops: the stream ends there.
          const aborted = new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
          await Promise.race([gate, aborted]);
          if (request.signal.aborted) return controller.error(request.signal.reason);
          for (const event of events.slice(2)) controller.enqueue(encoder.encode(`${event}\n\n`));
          controller.close();
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  };
  return { answer, release, started: startedPromise };
}

async function turnRow(app: ApprovalApp) {
  return (await app.store.asServer().query('ai-turns', { limit: 10 })).records[0]!.data;
}

describe('continuing a turn after approvals', () => {
  it('stop during the continuation: the tool ran once, its result and the partial answer are stored (stopped), the calls are decided', async () => {
    const purge = purgeTool();
    const app = approvalApp({ tools: purge.tools });
    const { chatId, asstId } = await pause(app);
    const held = heldText();
    gateway.queue.push(held.answer);
    const res = await approve(app, chatId);
    const reading = readSse(res);
    await held.started;
    const stop = await app.post(`/chats/${chatId}/stop`, {});
    expect(await stop.json()).toEqual({ stopped: true });
    held.release();
    const { chunks, done } = await reading;
    expect(done).toBe(true);
    expect(chunks.find((c) => c.type === 'tool-output-available')).toMatchObject({ toolCallId: 'call_purge', output: { purged: 'Milk' } });
    expect(purge.runs).toEqual(['Milk']);
    const assistant = (await app.store.asServer().find('ai-messages', asstId))!.data;
    expect(assistant.status).toBe('stopped');
    expect((assistant.parts as Chunk[]).find((p) => p.type === 'tool-notes_purge')).toMatchObject({ state: 'output-available', output: { purged: 'Milk' } });
    expect((await turnRow(app)).approvals).toMatchObject([{ toolCallId: 'call_purge', approved: true }]);
    const again = await approve(app, chatId);
    expect(again.status).toBe(409);
    expect(purge.runs).toHaveLength(1);
  });

  it("the model's next step fails: the tool's result stays with the turn and the call cannot run again", async () => {
    const purge = purgeTool();
    const app = approvalApp({ tools: purge.tools });
    const { chatId, asstId } = await pause(app);
    gateway.queue.push(() => new Response(JSON.stringify({ error: { message: 'overloaded' } }), { status: 500 }));
    const { chunks } = await readSse(await approve(app, chatId));
    expect(chunks.find((c) => c.type === 'tool-output-available')).toMatchObject({ output: { purged: 'Milk' } });
    expect(chunks.at(-1)).toMatchObject({ type: 'error' });
    const assistant = (await app.store.asServer().find('ai-messages', asstId))!.data;
    expect((assistant.parts as Chunk[]).find((p) => p.type === 'tool-notes_purge')).toMatchObject({ state: 'output-available' });
    const row = await turnRow(app);
    expect(row.pendingApproval ?? null).toBeNull();
    expect(row.approvals).toMatchObject([{ toolCallId: 'call_purge', approved: true, userId: 'alice' }]);
    const again = await approve(app, chatId);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('APPROVAL_DECIDED');
    expect(purge.runs).toEqual(['Milk']);
  });

  it('a continuation stopped before its calls run leaves them pending: a later answer runs them, once', async () => {
    const purge = purgeTool();
    let enter!: () => void;
    let release!: () => void;
    const entered = new Promise<void>((resolve) => (enter = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holdNext = false;
    const observer = {
      // Holds the continuation in its history phase (before any call runs) while the test stops it.
      prepare: async <T,>(run: () => Promise<T>) => {
        if (holdNext) {
          holdNext = false;
          enter();
          await gate;
        }
        return run();
      },
      stepStarted: () => undefined,
      stepFinished: () => undefined,
      toolStarted: () => undefined,
      toolFinished: () => undefined,
      save: <T,>(run: () => Promise<T>) => run(),
      ended: () => undefined,
    };
    const app = approvalApp({ tools: purge.tools, observe: () => observer });
    const { chatId, asstId } = await pause(app);
    holdNext = true;
    const reading = approve(app, chatId).then((res) => readSse(res));
    await entered;
    const stop = app.post(`/chats/${chatId}/stop`, {});
    // The stop route interrupts the held turn in this process; then the history phase may end.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect(await (await stop).json()).toEqual({ stopped: true });
    await reading;
    expect(purge.runs).toEqual([]);
    expect((await app.store.asServer().find('ai-messages', asstId))!.data.status).toBe('awaiting-approval');
    expect((await turnRow(app)).pendingApproval).toMatchObject({ calls: [{ toolCallId: 'call_purge' }] });

    gateway.queue.push(text(['Purged.']));
    const { chunks } = await readSse(await approve(app, chatId));
    expect(chunks.find((c) => c.type === 'tool-output-available')).toMatchObject({ output: { purged: 'Milk' } });
    expect(purge.runs).toEqual(['Milk']);
  });

  it("the AI SDK's streamText path (its telemetry on) cannot pause: a tool that needs approval does not run, the model is told", async () => {
    const purge = purgeTool();
    const observe = Object.assign(() => ({ prepare: <T,>(run: () => Promise<T>) => run(), stepStarted: () => undefined, stepFinished: () => undefined, toolStarted: () => undefined, toolFinished: () => undefined, save: <T,>(run: () => Promise<T>) => run(), ended: () => undefined }), {
      aiSdkTelemetry: { isEnabled: false },
    });
    const app = approvalApp({ tools: purge.tools, observe });
    const chatId = ((await (await app.post('/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
    gateway.queue.push(toolCalls([purgeCall]), text(['Could not.']));
    const { chunks } = await readSse(await app.post('/chat', { chatId, userMessageId: 'u1', content: 'purge Milk', modelId: MODEL_ID }));
    expect(chunks.map((c) => c.type)).not.toContain('data-tool-approval');
    expect(chunks.find((c) => c.type === 'tool-output-error')).toMatchObject({ toolCallId: 'call_purge', errorText: expect.stringContaining("needs the user's approval") });
    expect(purge.runs).toEqual([]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('a continuation whose write of the answered calls fails: the client reads the save-failed text, never the store’s wording', async () => {
    const purge = purgeTool();
    const faulty = withFaults(createMemoryDriver());
    const app = approvalApp({ tools: purge.tools, store: createRecordStore({ driver: faulty }) });
    const { chatId } = await pause(app);
    const storeWording = 'collection "ai-messages" field "parts[1].output.reason" contains an unpaired UTF-16 surrogate';
    faulty.failNext(1, { op: 'update', collection: 'ai-messages', error: new ChatwireError('VALIDATION', storeWording) });
    const { chunks, done } = await readSse(await approve(app, chatId));
    expect(done).toBe(true);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The reply could not be saved. Please send your message again.' });
    expect(JSON.stringify(chunks)).not.toContain('unpaired');
    expect(app.errors.map((e) => (e as Error).message)).toContain(storeWording);
  });

  it('a continuation that finds its chat deleted says so (not "the model call failed")', async () => {
    const purge = purgeTool();
    const faulty = withFaults(createMemoryDriver());
    const app = approvalApp({ tools: purge.tools, store: createRecordStore({ driver: faulty }) });
    const { chatId } = await pause(app);
    // What a DELETE /chats/:id committed just before the continuation's write looks like to it.
    faulty.failNext(1, { op: 'update', collection: 'ai-chats', error: new ChatwireError('NOT_FOUND', 'Record not found') });
    const { chunks, done } = await readSse(await approve(app, chatId));
    expect(done).toBe(true);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The chat was deleted while the reply was being written.' });
  });

  it('a needsApproval function of the input and the caller decides per call', async () => {
    const seen: unknown[] = [];
    const app = approvalApp({
      tools: {
        custom: {
          'notes.purge': {
            description: 'Purges a note.',
            inputSchema: z.object({ title: z.string() }),
            needsApproval: (input: { title: string }, context: { userId: string; toolCallId: string }) => {
              seen.push([input, context.userId, context.toolCallId]);
              return input.title !== 'Milk';
            },
            execute: async ({ title }: { title: string }) => ({ purged: title }),
          },
        },
      },
    });
    const chatId = ((await (await app.post('/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
    gateway.queue.push(toolCalls([purgeCall]), text(['Done.']));
    const { chunks } = await readSse(await app.post('/chat', { chatId, userMessageId: 'u1', content: 'purge Milk', modelId: MODEL_ID }));
    expect(seen).toEqual([[{ title: 'Milk' }, 'alice', 'call_purge']]);
    expect(chunks.map((c) => c.type)).not.toContain('data-tool-approval');
    expect(chunks.find((c) => c.type === 'tool-output-available')).toMatchObject({ output: { purged: 'Milk' } });
  });
});

const url = process.env.CHATWIRE_TEST_DATABASE_URL;
const schema = `cw_approval_${process.pid}_${Date.now().toString(36)}`;

describe.skipIf(!url)(`two handlers on one PostgreSQL store${url ? '' : ' (skipped: CHATWIRE_TEST_DATABASE_URL not set)'}`, () => {
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    if (pools[0]) await pools[0].query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('two approvals of the same call race: one continues, the other is 409, the tool runs once', async () => {
    const purge = purgeTool();
    const [a, b] = [0, 1].map(() => {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      pools.push(pool);
      return approvalApp({ store: createRecordStore({ driver: createPostgresDriver({ pool, schema }) }), tools: purge.tools });
    });
    const { chatId } = await pause(a!);
    gateway.queue.push(text(['Purged.']), text(['Purged.']));
    const [first, second] = await Promise.all([approve(a!, chatId), approve(b!, chatId)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = first.status === 409 ? first : second;
    expect(['CHAT_BUSY', 'APPROVAL_DECIDED']).toContain(((await loser.json()) as { error: { code: string } }).error.code);
    await readSse(first.status === 200 ? first : second);
    expect(purge.runs).toEqual(['Milk']);
    // Answered from the other process afterwards: decided.
    const late = await approve(b!, chatId);
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe('APPROVAL_DECIDED');
    expect(purge.runs).toEqual(['Milk']);
  });
});

const redisUrl = process.env.CHATWIRE_TEST_REDIS_URL;

describe.skipIf(!redisUrl)(`resuming a continued turn from another process (Redis hub)${redisUrl ? '' : ' (skipped: CHATWIRE_TEST_REDIS_URL not set)'}`, () => {
  it('GET /chats/:id/stream on the other handler reads the continuation, not the paused run before it', async () => {
    const purge = purgeTool();
    const store = createRecordStore({ driver: createMemoryDriver() });
    const redis = { url: redisUrl!, keyPrefix: `cw-approval-${process.pid}-${Date.now().toString(36)}` };
    const a = approvalApp({ store, redis, tools: purge.tools });
    const b = approvalApp({ store, redis, tools: purge.tools });
    try {
      const { chatId, asstId } = await pause(a);
      const held = heldText();
      gateway.queue.push(held.answer);
      const res = await approve(a, chatId);
      const reading = readSse(res);
      await held.started;
      const resumed = await b.get(`/chats/${chatId}/stream`);
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('x-asst-id')).toBe(asstId);
      held.release();
      const [own, other] = await Promise.all([reading, readSse(resumed)]);
      expect(other.done).toBe(true);
      expect(other.chunks[0]).toEqual({ type: 'start', messageId: asstId });
      expect(other.chunks.map((c) => c.type)).not.toContain('data-tool-approval');
      expect(other.chunks).toEqual(own.chunks);
      expect(purge.runs).toEqual(['Milk']);
    } finally {
      await Promise.all([a.handler.close(), b.handler.close()]);
    }
  });
});
