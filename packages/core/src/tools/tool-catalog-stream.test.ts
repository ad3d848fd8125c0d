import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatwireError } from '@chatwire/storage';
import { createToolCatalog } from './create-tool-catalog.js';
import { ALICE, chunksOf, runTurn, scriptedModel, seededStore } from './tool-test-kit.js';

const signal = () => new AbortController().signal;

describe('tool catalog through streamText', () => {
  it('streams a records_query call and its result: only the caller rows', async () => {
    const store = await seededStore();
    const tools = createToolCatalog().forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: signal() });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'records_query', input: { collection: 'notes' }, toolCallId: 'q1' }] },
      { text: 'You have one note.' },
    ]);
    const chunks = await runTurn(model, tools);

    const call = chunksOf(chunks, 'q1');
    expect(call.map((c) => c.type)).toEqual(['tool-input-available', 'tool-output-available']);
    expect(call[0]).toMatchObject({ toolName: 'records_query', input: { collection: 'notes' } });
    const output = (call[1] as { output: { records: Array<{ recordId: string; data: Record<string, unknown> }>; nextCursor: unknown } }).output;
    expect(output.records.map((r) => r.recordId)).toEqual(['alice-note']);
    expect(output.records[0]?.data).toEqual({ userId: 'alice', title: 'alice note', body: 'secret of alice' });
    expect(output.nextCursor).toBeNull();
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(model.doStreamCalls).toHaveLength(2);
  });

  it('creates a record with the demo model shape and the caller as owner', async () => {
    const store = await seededStore();
    const tools = createToolCatalog().forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: signal() });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'records_create', input: { collection: 'notes', data: { title: 'T', body: 'B' } }, toolCallId: 'c1' }] },
      { toolCalls: [{ toolName: 'user_current', input: {}, toolCallId: 'u1' }] },
      { text: 'Saved.' },
    ]);
    const chunks = await runTurn(model, tools);
    const created = chunksOf(chunks, 'c1')[1] as { type: string; output: { recordId: string; data: unknown } };
    expect(created.type).toBe('tool-output-available');
    expect(created.output.data).toEqual({ title: 'T', body: 'B', userId: 'alice' });
    const stored = await store.asServer().get('notes', created.output.recordId);
    expect(stored.data).toEqual({ title: 'T', body: 'B', userId: 'alice' });
    expect(chunksOf(chunks, 'u1')[1]).toMatchObject({
      type: 'tool-output-available',
      output: { userId: 'alice', role: 'user', source: 'claims', claims: { sub: 'alice', email: 'alice@example.com' } },
    });
  });

  it('gives tool-input-error when the input fails the schema, and the model sees why', async () => {
    const store = await seededStore();
    const tools = createToolCatalog().forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: signal() });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'records_query', input: { collection: 'notes', limit: 'ten' }, toolCallId: 'bad' }] },
      { text: 'Sorry.' },
    ]);
    const chunks = await runTurn(model, tools);
    const call = chunksOf(chunks, 'bad');
    expect(call[0]).toMatchObject({ type: 'tool-input-error', toolName: 'records_query', input: { collection: 'notes', limit: 'ten' } });
    expect((call[0] as { errorText: string }).errorText).toContain('limit');
    expect(JSON.stringify(model.doStreamCalls[1]?.prompt)).toContain('Invalid input for tool records_query');
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('gives tool-output-error with the ChatwireError message for a missing record, never a stack', async () => {
    const store = await seededStore();
    const tools = createToolCatalog().forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: signal() });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'records_get', input: { collection: 'notes', recordId: 'x' }, toolCallId: 'g1' }] },
      { text: 'Not found.' },
    ]);
    const chunks = await runTurn(model, tools);
    const error = chunksOf(chunks, 'g1')[1] as { type: string; errorText: string };
    expect(error.type).toBe('tool-output-error');
    expect(error.errorText).toBe('records.get: Record "x" not found in collection "notes"');
    expect(error.errorText).not.toMatch(/\n\s+at /);
    expect(JSON.stringify(model.doStreamCalls[1]?.prompt)).toContain('records.get: Record \\"x\\" not found');
  });

  it('a throwing custom tool gives tool-output-error and the loop goes on to a text answer', async () => {
    const store = await seededStore();
    const reported: unknown[] = [];
    const catalog = createToolCatalog({
      custom: {
        'weather.today': {
          description: 'Weather for a city',
          inputSchema: z.object({ city: z.string().describe('City name') }),
          execute: ({ city }) => {
            throw new Error(`no weather station in ${city}`);
          },
        },
      },
      onError: (error) => reported.push(error),
    });
    const tools = catalog.forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: signal() });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'weather_today', input: { city: 'Atlantis' }, toolCallId: 'w1' }] },
      { text: 'I could not get the weather.' },
    ]);
    const chunks = await runTurn(model, tools);
    expect(chunksOf(chunks, 'w1').map((c) => c.type)).toEqual(['tool-input-available', 'tool-output-error']);
    expect(chunksOf(chunks, 'w1')[1]).toMatchObject({ errorText: 'no weather station in Atlantis' });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => (c as { delta: string }).delta)).toEqual([
      'I could not get the weather.',
    ]);
    expect(reported).toHaveLength(1);
  });

  it('passes caller, records as the caller and the abort signal to custom tools', async () => {
    const store = await seededStore();
    const abort = new AbortController();
    let seen: { userId?: string; accessCaller?: string | undefined; signal?: AbortSignal } = {};
    const catalog = createToolCatalog({
      custom: {
        whoami: {
          description: 'Who is calling',
          inputSchema: z.object({}),
          execute: async (_input, context) => {
            seen = { userId: context.caller.userId, accessCaller: context.records.caller?.userId, signal: context.abortSignal };
            return (await context.records.query('notes')).records.length;
          },
        },
      },
    });
    const tools = catalog.forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: abort.signal });
    const chunks = await runTurn(scriptedModel([{ toolCalls: [{ toolName: 'whoami', input: {}, toolCallId: 'w' }] }, { text: 'ok' }]), tools);
    expect(seen).toMatchObject({ userId: 'alice', accessCaller: 'alice' });
    expect(chunksOf(chunks, 'w')[1]).toMatchObject({ type: 'tool-output-available', output: 1 });
    expect(seen.signal?.aborted).toBe(false);
  });

  it('a tool’s signal aborts when its turn aborts during the call', async () => {
    const store = await seededStore();
    const abort = new AbortController();
    let aborted = false;
    const catalog = createToolCatalog({
      custom: {
        wait: {
          description: 'Waits for its signal',
          inputSchema: z.object({}),
          execute: (_input, context) =>
            new Promise((resolve) => {
              context.abortSignal.addEventListener('abort', () => resolve((aborted = true)), { once: true });
              setTimeout(() => abort.abort(), 5);
            }),
        },
      },
    });
    const tools = catalog.forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: abort.signal });
    await runTurn(scriptedModel([{ toolCalls: [{ toolName: 'wait', input: {}, toolCallId: 'w' }] }, { text: 'ok' }]), tools);
    expect(aborted).toBe(true);
  });

  it('a tool past toolTimeoutMs fails with TIMEOUT (its signal aborted, even if it ignores it) and the loop goes on', async () => {
    const store = await seededStore();
    let toolSignal: AbortSignal | undefined;
    const catalog = createToolCatalog({
      toolTimeoutMs: 30,
      custom: {
        hang: {
          description: 'Never answers',
          inputSchema: z.object({}),
          execute: (_input, context) => {
            toolSignal = context.abortSignal;
            return new Promise(() => undefined);
          },
        },
      },
    });
    const tools = catalog.forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: signal() });
    const model = scriptedModel([{ toolCalls: [{ toolName: 'hang', input: {}, toolCallId: 'h1' }] }, { text: 'It did not answer.' }]);
    const chunks = await runTurn(model, tools);
    expect(chunksOf(chunks, 'h1').map((c) => c.type)).toEqual(['tool-input-available', 'tool-output-error']);
    expect(chunksOf(chunks, 'h1')[1]).toMatchObject({ errorText: 'hang: did not finish within 30 ms' });
    expect(toolSignal?.aborted).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('toolTimeoutMs 0 hands tools the turn’s own signal; a bad value is a configuration error', async () => {
    const store = await seededStore();
    const abort = new AbortController();
    let seen: AbortSignal | undefined;
    const catalog = createToolCatalog({
      toolTimeoutMs: 0,
      custom: { sig: { description: 'signal', inputSchema: z.object({}), execute: (_input, context) => ((seen = context.abortSignal), 'ok') } },
    });
    await runTurn(scriptedModel([{ toolCalls: [{ toolName: 'sig', input: {}, toolCallId: 's' }] }, { text: 'ok' }]), catalog.forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: abort.signal }));
    expect(seen).toBe(abort.signal);
    expect(() => createToolCatalog({ toolTimeoutMs: -1 })).toThrow(/toolTimeoutMs must be an integer/);
  });

  it('masks unexpected built-in failures as INTERNAL and reports them to onError', async () => {
    const store = await seededStore();
    const reported: unknown[] = [];
    const records = store.asCaller(ALICE);
    const broken = { ...records, query: () => Promise.reject(new Error('connect ECONNREFUSED postgres://admin:pw@db')) };
    const tools = createToolCatalog({ onError: (e) => reported.push(e) }).forTurn({ caller: ALICE, records: broken, abortSignal: signal() });
    const chunks = await runTurn(
      scriptedModel([{ toolCalls: [{ toolName: 'records_query', input: { collection: 'notes' }, toolCallId: 'q' }] }, { text: 'ok' }]),
      tools,
    );
    const error = chunksOf(chunks, 'q')[1] as { type: string; errorText: string };
    expect(error.type).toBe('tool-output-error');
    expect(error.errorText).toMatch(/^records\.query: failed unexpectedly/);
    expect(error.errorText).not.toContain('postgres://');
    expect(reported).toHaveLength(1);
    expect(ChatwireError.is(reported[0])).toBe(false);
  });

  it('cuts a result above toolResultCap with a marker saying how much was cut and how to ask for less', async () => {
    const store = await seededStore();
    const records = store.asCaller(ALICE);
    for (let i = 0; i < 30; i++) await records.create('notes', { title: `n${i}`, body: 'é'.repeat(200) });
    const tools = createToolCatalog({ toolResultCap: 2_000 }).forTurn({ caller: ALICE, records, abortSignal: signal() });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'records_query', input: { collection: 'notes', limit: 30 }, toolCallId: 'big' }] },
      { text: 'done' },
    ]);
    const chunks = await runTurn(model, tools);
    const output = (chunksOf(chunks, 'big')[1] as { output: unknown }).output;
    expect(typeof output).toBe('string');
    const text = output as string;
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(2_000);
    const full = JSON.stringify(await records.query('notes', { limit: 30 })); // the same page the tool returned
    const match = /\n\[chatwire: result cut to fit 2000 bytes: showing the first (\d+) of (\d+) bytes, (\d+) bytes cut\. (.*)\]$/.exec(text);
    expect(match).not.toBeNull();
    const [marker, kept, of, cut, hint] = match as unknown as [string, string, string, string, string];
    expect(Number(of)).toBe(new TextEncoder().encode(full).length);
    expect(Number(kept) + Number(cut)).toBe(Number(of));
    expect(hint).toContain('smaller `limit`');
    const shown = text.slice(0, text.length - marker.length);
    expect(new TextEncoder().encode(shown).length).toBe(Number(kept));
    expect(full.startsWith(shown)).toBe(true);
    expect(JSON.stringify(model.doStreamCalls[1]?.prompt)).toContain('result cut to fit 2000 bytes');
  });
});
