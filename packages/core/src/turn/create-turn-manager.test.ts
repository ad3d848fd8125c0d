import { describe, expect, it } from 'vitest';
import { createMemoryTurnBus } from '../hub/index.js';
import type { TurnBus } from '../hub/turn-hub.js';
import type { TurnRequest } from './admit-turn.js';
import { createTurnManager, type TurnManager } from './create-turn-manager.js';
import { scriptedModel, textStep, type ScriptedModel } from './testing/scripted-model.js';
import { decodeSse, readBytes, streamedText } from './testing/sse.js';
import { ALICE, turnHarness, type HarnessOptions } from './testing/turn-harness.js';
import type { Turn } from './turn.js';
import { TurnInterrupt } from './turn-ending.js';

const ANSWER = 'one two three four five six';

/** A manager over a fresh harness and a chat; `begin` starts a turn on a model that pauses after `pauseAfter` parts. */
async function managed(options: HarnessOptions = {}) {
  const h = turnHarness(options);
  const manager = createTurnManager(h.runtime);
  const chatId = await h.createChat();
  let n = 0;
  return {
    h,
    manager,
    chatId,
    async begin(pauseAfter: number | null = 3, signal?: AbortSignal, via: TurnManager = manager): Promise<{ turn: Turn; m: ScriptedModel }> {
      const m = scriptedModel([textStep(ANSWER)]);
      if (pauseAfter !== null) m.pauseAt(pauseAfter);
      const input: TurnRequest['input'] = { chatId, trigger: 'submit', userMessageId: `u${++n}`, content: 'question' };
      const turn = await via.start({ caller: ALICE, input, model: h.turnModel(m.model), authToken: undefined }, signal);
      if (pauseAfter !== null) await m.emitted(pauseAfter);
      return { turn, m };
    },
  };
}

describe('createTurnManager: stop', () => {
  it('stop() on a running turn answers { stopped: true } only once the partial pair is stored', async () => {
    const { h, manager, chatId, begin } = await managed();
    const { turn } = await begin(3);
    const reading = readBytes(turn.output.response);
    expect(await manager.stop(chatId)).toEqual({ stopped: true });
    // Checked right after stop answered: nothing awaited in between.
    const messages = await h.messages(chatId);
    expect(messages.map((m) => [m.data.role, m.data.status])).toEqual([
      ['user', undefined],
      ['assistant', 'stopped'],
    ]);
    const body = decodeSse(await reading);
    expect(messages[1]!.data.content).toBe(streamedText(body));
    expect(body.chunks.slice(-2).map((c) => c.type)).toEqual(['text-end', 'finish']);
    expect(body.dones).toBe(1);
  });

  it('stop() with nothing running answers { stopped: false } and leaves the chat free', async () => {
    const { h, manager, chatId } = await managed();
    expect(await manager.stop(chatId)).toEqual({ stopped: false });
    const lease = await h.store.leases.acquire(`chat:${chatId}`, { ttlMs: 1_000 });
    expect(lease).not.toBeNull();
    await lease?.release();
  });

  it('stop() after the turn ended answers { stopped: false }; the chat takes a new turn', async () => {
    const { manager, chatId, begin } = await managed();
    const { turn } = await begin(null);
    await readBytes(turn.output.response);
    expect((await turn.ended).kind).toBe('completed');
    expect(await manager.stop(chatId)).toEqual({ stopped: false });
    const next = await begin(null);
    await readBytes(next.turn.output.response);
    expect((await next.turn.ended).kind).toBe('completed');
  });

  it('stop() reaches a turn running on another manager (another process) through the bus, and answers once it is stored', async () => {
    const bus = createMemoryTurnBus();
    const { h, chatId, begin } = await managed({ bus });
    const processA = createTurnManager(h.runtime);
    const processB = createTurnManager({ ...h.runtime });
    const { turn } = await begin(3, undefined, processA);
    void readBytes(turn.output.response);
    expect(await processB.stop(chatId)).toEqual({ stopped: true });
    expect((await h.messages(chatId)).map((m) => m.data.status ?? 'complete')).toEqual(['complete', 'stopped']);
  });

  // Bug: start() subscribes to the turn's stop requests without waiting for the subscription to be live
  // (listenForStop), so a stop sent from another process right after start() returned (the client already has
  // X-Asst-Id) is lost while the bus (LISTEN, SUBSCRIBE) is still connecting: the turn runs on and the stop route
  // waits its 10 s for nothing. start() should await the subscription before returning the turn.
  it('a stop sent from another process right after start() returned reaches the turn', async () => {
    const bus = createMemoryTurnBus();
    // Process A's bus connects slowly: its subscriptions go live once a stop was published (the race), or
    // after 50 ms when nothing is published (so a start() that waits for them still returns).
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    setTimeout(openGate, 50);
    let listening = false;
    const slowToListen: TurnBus = {
      publish: (chatId, event) => bus.publish(chatId, event),
      subscribe: async (chatId, listener) => {
        await gate;
        const unsubscribe = await bus.subscribe(chatId, listener);
        listening = true;
        return unsubscribe;
      },
      close: () => bus.close(),
    };
    const processB: TurnBus = {
      publish: async (chatId, event) => {
        await bus.publish(chatId, event);
        if (event.type === 'stop') openGate();
      },
      subscribe: (chatId, listener) => bus.subscribe(chatId, listener),
      close: () => bus.close(),
    };
    const { h, chatId } = await managed({ bus });
    const managerA = createTurnManager({ ...h.runtime, bus: slowToListen });
    const managerB = createTurnManager({ ...h.runtime, bus: processB });
    const m = scriptedModel([textStep(ANSWER)]);
    m.pauseAt(2);
    const input = { chatId, trigger: 'submit' as const, userMessageId: 'u1', content: 'question' };
    const turn = await managerA.start({ caller: ALICE, input, model: h.turnModel(m.model), authToken: undefined }, undefined);
    void readBytes(turn.output.response);
    const stopping = managerB.stop(chatId);
    for (let i = 0; i < 1_000 && !listening; i++) await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    const stoppedBy = turn.signal.aborted ? TurnInterrupt.kindOf(turn.signal) : 'nothing';
    turn.interrupt('ended'); // ends the turn either way, so the stop route gets its answer
    const answer = await stopping;
    expect(stoppedBy).toBe('stop');
    expect(answer).toEqual({ stopped: true });
  });

  it('without a bus, a turn held elsewhere cannot be reached: { stopped: false }', async () => {
    const { h, manager, chatId } = await managed();
    const elsewhere = await h.store.leases.acquire(`chat:${chatId}`, { ttlMs: 15_000 });
    expect(await manager.stop(chatId)).toEqual({ stopped: false });
    await elsewhere?.release();
  });
});

describe('createTurnManager: attach', () => {
  it('attach returns the running turn from its first byte (the same bytes as its response), then null once it ended', async () => {
    const { manager, chatId, begin } = await managed();
    const { turn, m } = await begin(3);
    const original = readBytes(turn.output.response);
    const attached = await manager.attach(chatId, undefined);
    expect(attached?.turnId).toBe(turn.id);
    const resumed = readBytes(attached!.stream);
    m.release();
    const [a, b] = await Promise.all([original, resumed]);
    expect(b).toEqual(a);
    expect(decodeSse(b).chunks[0]).toEqual({ type: 'start', messageId: turn.id });
    await turn.ended;
    expect(await manager.attach(chatId, undefined)).toBeNull();
  });

  it('a reader that leaves does not touch the turn', async () => {
    const { h, manager, chatId, begin } = await managed();
    const { turn, m } = await begin(3);
    const original = readBytes(turn.output.response);
    const attached = await manager.attach(chatId, undefined);
    const reader = attached!.stream.getReader();
    await reader.read();
    await reader.cancel();
    m.release();
    await original;
    expect((await turn.ended).kind).toBe('completed');
    expect(await h.messages(chatId)).toHaveLength(2);
  });
});

describe('createTurnManager: the client going away', () => {
  it('onDisconnect "continue": the turn runs on after its response is cancelled and is stored; a later reader gets it all', async () => {
    const { h, manager, chatId, begin } = await managed({ onDisconnect: 'continue' });
    const { turn, m } = await begin(3);
    await turn.output.response.cancel();
    const attached = await manager.attach(chatId, undefined);
    m.release();
    const body = decodeSse(await readBytes(attached!.stream));
    expect(await turn.ended).toEqual({ kind: 'completed', finishReason: 'stop' });
    expect(m.aborted).toBe(false);
    expect(streamedText(body)).toBe(ANSWER);
    expect((await h.messages(chatId)).map((row) => row.data.content)).toEqual(['question', ANSWER]);
  });

  it('onDisconnect "continue": the request signal aborting does not stop the turn either', async () => {
    const { h, chatId, begin } = await managed({ onDisconnect: 'continue' });
    const request = new AbortController();
    const { turn, m } = await begin(3, request.signal);
    const reading = readBytes(turn.output.response);
    request.abort();
    m.release();
    await reading;
    expect((await turn.ended).kind).toBe('completed');
    expect(await h.messages(chatId)).toHaveLength(2);
  });

  it('onDisconnect "abort": a cancelled response aborts the model call and stores nothing', async () => {
    const { h, chatId, begin } = await managed({ onDisconnect: 'abort' });
    const { turn, m } = await begin(3);
    await turn.output.response.cancel();
    expect(await turn.ended).toEqual({ kind: 'aborted' });
    expect(m.aborted).toBe(true);
    expect(await h.messages(chatId)).toEqual([]);
    const lease = await h.store.leases.acquire(`chat:${chatId}`, { ttlMs: 1_000 });
    expect(lease).not.toBeNull();
  });

  it('onDisconnect "abort": the request signal aborting ends the turn the same way', async () => {
    const { h, chatId, begin } = await managed({ onDisconnect: 'abort' });
    const request = new AbortController();
    const { turn } = await begin(3, request.signal);
    const reading = readBytes(turn.output.response);
    request.abort();
    expect(await turn.ended).toEqual({ kind: 'aborted' });
    expect(decodeSse(await reading).chunks.at(-1)).toEqual({ type: 'abort' });
    expect(await h.messages(chatId)).toEqual([]);
  });

  it('a request signal already aborted at start: the turn is aborted, nothing stored', async () => {
    const { h, chatId, begin } = await managed({ onDisconnect: 'abort' });
    const request = new AbortController();
    request.abort();
    const { turn } = await begin(null, request.signal);
    void readBytes(turn.output.response);
    expect(await turn.ended).toEqual({ kind: 'aborted' });
    expect(await h.messages(chatId)).toEqual([]);
  });
});

describe('createTurnManager: admission', () => {
  it('start refuses a second turn of a running chat with CHAT_BUSY', async () => {
    const { manager, chatId, begin } = await managed();
    const { turn, m } = await begin(3);
    await expect(begin(null)).rejects.toMatchObject({ code: 'CHAT_BUSY' });
    m.release();
    await readBytes(turn.output.response);
    expect(await manager.stop(chatId)).toEqual({ stopped: false });
  });
});
