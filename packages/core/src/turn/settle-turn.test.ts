import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { ChatwireError, type RecordAccess, type RecordStore } from '@chatwire/storage';
import { AI_CHATS, AI_MESSAGES, AI_TURNS } from '../records/chat-collections.js';
import type { TurnInput } from './turn-input.js';
import type { TurnHub } from '../hub/turn-hub.js';
import { preparePrompt } from './prepare-prompt.js';
import { settleTurn } from './settle-turn.js';
import { TURN_TEXTS } from './turn-texts.js';
import type { StreamOutcome } from './stream-model.js';
import { scriptedModel, textStep } from './testing/scripted-model.js';
import { decodeSse, readBytes } from './testing/sse.js';
import { turnHarness, type HarnessOptions } from './testing/turn-harness.js';
import type { InterruptKind } from './turn-ending.js';

const USAGE = { inputTokens: 9, outputTokens: 4, totalTokens: 13 };
const finished = (finishReason = 'stop'): StreamOutcome => ({ kind: 'finished', finishReason, usage: USAGE, steps: 1 });
const interrupted = (interrupt: InterruptKind): StreamOutcome => ({ kind: 'interrupted', interrupt, usage: USAGE, steps: 1 });

/**
 * A turn whose model phase streamed `partial` (its text block left open unless `closeText`), ready to settle.
 * `events` records, in order, each chunk the turn sends and `saved` when a save transaction commits.
 */
async function streamedTurn(input: Partial<TurnInput> = {}, options: HarnessOptions & { closeText?: boolean } = {}) {
  const { closeText = false, ...harness } = options;
  const h = turnHarness(harness);
  const events: string[] = [];
  const hub = h.runtime.hub;
  const recordingHub: TurnHub = {
    ...hub,
    open(chatId, turnId) {
      const log = hub.open(chatId, turnId);
      return {
        append(bytes) {
          const body = decodeSse(bytes);
          events.push(...body.chunks.map((c) => c.type), ...Array.from({ length: body.dones }, () => '[DONE]'));
          log.append(bytes);
        },
        end: () => log.end(),
      };
    },
  };
  h.runtime.hub = recordingHub;
  h.runtime.store = withCommitEvents(h.store, () => events.push('saved'));
  const chatId = await h.createChat();
  await h.seed(chatId, [
    { id: 'u1', role: 'user', content: 'one' },
    { id: 'a1', role: 'assistant', content: 'answer one' },
  ]);
  await h.seedTurn(chatId, 'a1', 'u1');
  const turn = await h.admit({ chatId, userMessageId: 'u2', content: 'two', ...input }, scriptedModel([textStep('x')]).model);
  const prompt = await preparePrompt(turn, h.runtime);
  const reading = readBytes(turn.output.response);
  for (const chunk of [{ type: 'start-step' }, { type: 'text-start', id: 't' }] as const) {
    turn.answer.apply(chunk);
    turn.output.send(chunk);
  }
  turn.answer.appendText('t', 'partial answer');
  turn.output.sendTextDelta('t', 'partial answer');
  if (closeText) {
    turn.answer.apply({ type: 'text-end', id: 't' });
    turn.output.send({ type: 'text-end', id: 't' });
  }
  const before = await snapshot(h.server);
  events.length = 0;
  return {
    h,
    chatId,
    turn,
    events,
    async settle(outcome: StreamOutcome, usePrompt = true) {
      const ending = await settleTurn(turn, usePrompt ? prompt : null, outcome, h.runtime);
      await turn.output.end();
      await turn.lease.release();
      const body = decodeSse(await reading);
      const after = await snapshot(h.server);
      // `unchanged`: no message or turn row written or deleted; `chatUnchanged`: the chat row not touched either.
      return { ending, body, unchanged: after.rows === before.rows, chatUnchanged: after.chats === before.chats, last: body.chunks.at(-1) };
    },
  };
}

/** The message and turn rows (`rows`) and the chat rows (`chats`), as JSON. */
async function snapshot(server: RecordAccess): Promise<{ rows: string; chats: string }> {
  const all = async (collection: string) => (await server.query(collection, { limit: 200 })).records;
  return { rows: JSON.stringify([await all(AI_MESSAGES), await all(AI_TURNS)]), chats: JSON.stringify(await all(AI_CHATS)) };
}

/** The store, with `onCommit` called after each server-side transaction commits. */
function withCommitEvents(store: RecordStore, onCommit: () => void): RecordStore {
  const server = store.asServer();
  const access = new Proxy(server, {
    get(target, key, receiver) {
      if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
      return async <T>(fn: (tx: RecordAccess) => Promise<T>) => {
        const result = await target.transaction(fn);
        onCommit();
        return result;
      };
    },
  });
  return new Proxy(store, { get: (target, key, receiver) => (key === 'asServer' ? () => access : (Reflect.get(target, key, receiver) as unknown)) });
}

/** Makes every save transaction fail. */
function failingSaves(store: RecordStore): RecordStore {
  const server = store.asServer();
  const access = new Proxy(server, {
    get: (target, key, receiver) =>
      key === 'transaction' ? () => Promise.reject(new Error('connection terminated')) : (Reflect.get(target, key, receiver) as unknown),
  });
  return new Proxy(store, { get: (target, key, receiver) => (key === 'asServer' ? () => access : (Reflect.get(target, key, receiver) as unknown)) });
}

describe('settleTurn: a finished answer', () => {
  it('is stored, then finish is sent with the model’s finish reason; the ending is completed', async () => {
    const run = await streamedTurn({}, { closeText: true });
    const { ending, last } = await run.settle(finished('length'));
    expect(ending).toEqual({ kind: 'completed', finishReason: 'length' });
    expect(run.events).toEqual(['saved', 'finish', '[DONE]']);
    expect(last).toEqual({ type: 'finish', finishReason: 'length' });
    const messages = await run.h.messages(run.chatId);
    expect(messages.map((m) => m.recordId)).toEqual(['u1', 'a1', 'u2', run.turn.id]);
    expect(messages[3]!.data).toMatchObject({ content: 'partial answer', status: 'complete' });
    expect((await run.h.server.find(AI_TURNS, run.turn.id))?.data).toMatchObject({ finishReason: 'length', usage: { input: 9, output: 4, total: 13 }, steps: 1 });
  });
});

describe('settleTurn: a stopped answer', () => {
  it('closes the open text, stores the partial pair as stopped, then finishes; the ending is stopped', async () => {
    const run = await streamedTurn();
    const { ending, body } = await run.settle(interrupted('stop'));
    expect(ending).toEqual({ kind: 'stopped' });
    expect(run.events).toEqual(['text-end', 'saved', 'finish', '[DONE]']);
    expect(body.chunks.slice(-2)).toEqual([
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    const messages = await run.h.messages(run.chatId);
    expect(messages.map((m) => m.recordId)).toEqual(['u1', 'a1', 'u2', run.turn.id]);
    expect(messages[2]!.data.content).toBe('two');
    expect(messages[3]!.data).toMatchObject({ role: 'assistant', content: 'partial answer', status: 'stopped' });
    expect((await run.h.server.find(AI_TURNS, run.turn.id))?.data).toMatchObject({ finishReason: 'stopped', steps: 1, usage: { input: 9 } });
  });

  it('sends no text-end when no text block is open', async () => {
    const run = await streamedTurn({}, { closeText: true });
    await run.settle(interrupted('stop'));
    expect(run.events).toEqual(['saved', 'finish', '[DONE]']);
  });

  it('a stopped edit applies its rewrite with the partial answer', async () => {
    const run = await streamedTurn({ trigger: 'edit', userMessageId: 'u1', content: 'one, edited' });
    expect((await run.settle(interrupted('stop'))).ending).toEqual({ kind: 'stopped' });
    const messages = await run.h.messages(run.chatId);
    expect(messages.map((m) => [m.recordId, m.data.content, m.data.status])).toEqual([
      ['u1', 'one, edited', undefined],
      [run.turn.id, 'partial answer', 'stopped'],
    ]);
    expect((await run.h.rows(AI_TURNS, run.chatId)).map((r) => r.recordId)).toEqual([run.turn.id]);
  });

  it('a stop that lost the chat’s lease stores nothing and ends with the lost-lease error instead of finish', async () => {
    const run = await streamedTurn();
    run.h.advanceStoreClock(run.h.runtime.leaseTtlMs + 1);
    expect(await run.h.store.leases.acquire(`chat:${run.chatId}`, { ttlMs: 1_000 })).not.toBeNull();
    const { ending, unchanged, last } = await run.settle(interrupted('stop'));
    expect(ending).toEqual({ kind: 'lost-lease' });
    expect(last).toEqual({ type: 'error', errorText: TURN_TEXTS.lostLease });
    expect(unchanged).toBe(true);
  });

  it('a tool call stopped mid-input is stored with the partial parse of its input, as the SDK reader keeps it', async () => {
    const run = await streamedTurn({}, { closeText: true });
    run.turn.answer.apply({ type: 'tool-input-start', toolCallId: 'c1', toolName: 'lookup' });
    run.turn.answer.apply({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":"Par' });
    await run.settle(interrupted('stop'));
    const stored = await run.h.server.find(AI_MESSAGES, run.turn.id);
    const part = (stored?.data.parts as Array<Record<string, unknown>>).find((p) => p.type === 'tool-lookup');
    expect(part).toMatchObject({ state: 'input-streaming', input: { city: 'Par' } });
  });
});

describe('settleTurn: endings that store nothing', () => {
  it.each<InterruptKind>(['disconnect', 'ended'])('interrupt %s: abort chunk, nothing stored, ending aborted', async (kind) => {
    const run = await streamedTurn({ trigger: 'regenerate', userMessageId: 'u1' });
    const { ending, unchanged, chatUnchanged, last } = await run.settle(interrupted(kind));
    expect(ending).toEqual({ kind: 'aborted' });
    expect(last).toEqual({ type: 'abort' });
    expect(run.events).toEqual(['abort', '[DONE]']);
    expect(unchanged).toBe(true);
    expect(chatUnchanged).toBe(true);
  });

  it('lost-lease interrupt: the lost-lease error, nothing stored', async () => {
    const run = await streamedTurn();
    const { ending, unchanged, last } = await run.settle(interrupted('lost-lease'));
    expect(ending).toEqual({ kind: 'lost-lease' });
    expect(last).toEqual({ type: 'error', errorText: TURN_TEXTS.lostLease });
    expect(unchanged).toBe(true);
  });

  it.each([
    ['first-byte-timeout', TURN_TEXTS.firstByteTimeout],
    ['idle-timeout', TURN_TEXTS.idleTimeout],
  ] as const)('%s: its error text, reported as a model error, nothing stored', async (kind, text) => {
    const run = await streamedTurn({ trigger: 'edit', userMessageId: 'u1', content: 'x' });
    const { ending, unchanged, last } = await run.settle(interrupted(kind));
    expect(ending).toEqual({ kind: 'failed', errorText: text });
    expect(last).toEqual({ type: 'error', errorText: text });
    expect(unchanged).toBe(true);
    expect(run.h.errors.map((e) => [e.context.stage, (e.error as Error).message])).toEqual([['model', text]]);
  });

  it('a failed model phase: a safe error text (the provider’s status, never its body), nothing stored', async () => {
    const run = await streamedTurn();
    const error = new APICallError({ message: 'secret body sk-123', url: 'https://x', requestBodyValues: {}, statusCode: 529, responseBody: 'sk-123' });
    const { ending, unchanged, last, body } = await run.settle({ kind: 'failed', error, stage: 'model' });
    expect(ending).toEqual({ kind: 'failed', errorText: 'The model provider returned an error (status 529).' });
    expect(last).toEqual({ type: 'error', errorText: 'The model provider returned an error (status 529).' });
    expect(JSON.stringify(body.chunks)).not.toContain('sk-123');
    expect(unchanged).toBe(true);
  });

  it('a failure that names its own text (a write of the model phase): that text, never the error’s', async () => {
    const run = await streamedTurn();
    const error = new ChatwireError('VALIDATION', 'collection "ai-messages" field "parts[1].output.reason" contains an unpaired UTF-16 surrogate');
    const { ending, last } = await run.settle({ kind: 'failed', error, stage: 'persist', errorText: TURN_TEXTS.saveFailed });
    expect(ending).toEqual({ kind: 'failed', errorText: TURN_TEXTS.saveFailed });
    expect(last).toEqual({ type: 'error', errorText: TURN_TEXTS.saveFailed });
  });

  it('a completed answer whose chat lease was taken over: the lost-lease error instead of finish, nothing stored', async () => {
    const run = await streamedTurn({}, { closeText: true });
    run.h.advanceStoreClock(run.h.runtime.leaseTtlMs + 1);
    expect(await run.h.store.leases.acquire(`chat:${run.chatId}`, { ttlMs: 1_000 })).not.toBeNull();
    const { ending, unchanged, body } = await run.settle(finished());
    expect(ending).toEqual({ kind: 'lost-lease' });
    expect(body.chunks.at(-1)).toEqual({ type: 'error', errorText: TURN_TEXTS.lostLease });
    expect(body.chunks.some((c) => c.type === 'finish')).toBe(false);
    expect(unchanged).toBe(true);
  });

  // Bug (same root as the save-turn one): the save touches the chat (updatedAt) before it checks the lease, and
  // the 'lost-lease' answer commits that transaction: a turn that stores nothing still bumps its chat.
  it('a save that lost its lease leaves the chat row as it was', async () => {
    const run = await streamedTurn({}, { closeText: true });
    run.h.advanceStoreClock(run.h.runtime.leaseTtlMs + 1);
    expect(await run.h.store.leases.acquire(`chat:${run.chatId}`, { ttlMs: 1_000 })).not.toBeNull();
    const { ending, chatUnchanged } = await run.settle(finished());
    expect(ending).toEqual({ kind: 'lost-lease' });
    expect(chatUnchanged).toBe(true);
  });

  it('a chat deleted while the turn ran: the chat-deleted error, nothing stored', async () => {
    const run = await streamedTurn({}, { closeText: true });
    await run.h.server.delete(AI_CHATS, run.chatId);
    const before = await snapshot(run.h.server);
    const { ending, body } = await run.settle(finished());
    expect(ending).toEqual({ kind: 'failed', errorText: TURN_TEXTS.chatDeleted });
    expect(body.chunks.at(-1)).toEqual({ type: 'error', errorText: TURN_TEXTS.chatDeleted });
    expect(await snapshot(run.h.server)).toEqual(before);
  });

  it.each([finished(), interrupted('stop')])('a save that fails twice: the save-failed error, reported as persist, nothing stored (%o)', async (outcome) => {
    const run = await streamedTurn({}, { closeText: true });
    run.h.runtime.store = failingSaves(run.h.store);
    const { ending, unchanged, chatUnchanged, body } = await run.settle(outcome);
    expect(chatUnchanged).toBe(true);
    expect(ending).toEqual({ kind: 'failed', errorText: TURN_TEXTS.saveFailed });
    expect(body.chunks.at(-1)).toEqual({ type: 'error', errorText: TURN_TEXTS.saveFailed });
    expect(body.chunks.some((c) => c.type === 'finish')).toBe(false);
    expect(body.dones).toBe(1);
    expect(unchanged).toBe(true);
    expect(run.h.errors.map((e) => e.context.stage)).toEqual(['persist']);
  });
});
