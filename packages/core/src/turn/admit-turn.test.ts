import { ChatwireError } from '@chatwire/storage';
import { AI_MESSAGES } from '../records/chat-collections.js';
import { userMessageRecordId } from '../records/message-record-id.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scriptedModel, textStep } from './testing/scripted-model.js';
import { ALICE, BOB, turnHarness } from './testing/turn-harness.js';

const model = () => scriptedModel([textStep('ok')]).model;

/** True when nobody holds the chat's lease (it can be taken, and is given back at once). */
async function leaseIsFree(h: ReturnType<typeof turnHarness>, chatId: string): Promise<boolean> {
  const lease = await h.store.leases.acquire(`chat:${chatId}`, { ttlMs: 1_000 });
  await lease?.release();
  return lease !== null;
}

async function chatWithHistory(h: ReturnType<typeof turnHarness>) {
  const chatId = await h.createChat();
  await h.seed(chatId, [
    { id: 'u1', role: 'user', content: 'first' },
    { id: 'a1', role: 'assistant', content: 'first answer' },
    { id: 'u2', role: 'user', content: 'second' },
    { id: 'a2', role: 'assistant', content: 'second answer' },
  ]);
  return chatId;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('admitTurn: the chat', () => {
  it('answers NOT_FOUND for another user’s chat and for an unknown chat (auto-create off), holding no lease', async () => {
    const h = turnHarness();
    const bobs = await h.createChat(BOB);
    await expect(h.admit({ chatId: bobs, userMessageId: 'm1', content: 'hi' }, model())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(h.admit({ chatId: 'nobody-has-this', userMessageId: 'm2', content: 'hi' }, model())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await leaseIsFree(h, bobs)).toBe(true);
    expect(await leaseIsFree(h, 'nobody-has-this')).toBe(true);
  });

  it('admits a submit to the caller’s chat with the plan it names and no new chat', async () => {
    const h = turnHarness();
    const chatId = await h.createChat();
    const turn = await h.admit({ chatId, userMessageId: 'm1', content: 'hello' }, model());
    expect(turn.chatId).toBe(chatId);
    expect(turn.caller).toEqual(ALICE);
    expect(turn.plan).toEqual({ trigger: 'submit', userMessageId: 'm1', content: 'hello', recordId: 'm1' });
    expect(turn.newChatTitle).toBeNull();
    expect(turn.model.modelId).toBe('test-model');
    expect(await leaseIsFree(h, chatId)).toBe(false); // the admitted turn holds it
    await turn.lease.release();
  });

  it('with createChatOnFirstTurn, a submit to an unknown chat id is admitted with the title of its first message', async () => {
    const h = turnHarness({ createChatOnFirstTurn: true });
    const turn = await h.admit({ chatId: 'fresh-chat', userMessageId: 'm1', content: '  Plan a trip\nto   Rome  ' }, model());
    expect(turn.newChatTitle).toBe('Plan a trip');
    expect(turn.plan.trigger).toBe('submit');
    expect(await h.rows('ai-chats')).toEqual([]); // created only when the turn is stored
    await turn.lease.release();
  });

  it('with createChatOnFirstTurn, edit and regenerate to an unknown chat, and any trigger to another user’s chat, stay NOT_FOUND', async () => {
    const h = turnHarness({ createChatOnFirstTurn: true });
    await expect(h.admit({ chatId: 'fresh', trigger: 'edit', userMessageId: 'm1', content: 'x' }, model())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(h.admit({ chatId: 'fresh', trigger: 'regenerate' }, model())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const bobs = await h.createChat(BOB);
    await expect(h.admit({ chatId: bobs, userMessageId: 'm1', content: 'x' }, model())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await leaseIsFree(h, bobs)).toBe(true);
  });
});

describe('admitTurn: the lease', () => {
  it('answers CHAT_BUSY while another turn holds the chat, and admits once it is released', async () => {
    const h = turnHarness();
    const chatId = await h.createChat();
    const first = await h.admit({ chatId, userMessageId: 'm1', content: 'one' }, model());
    await expect(h.admit({ chatId, userMessageId: 'm2', content: 'two' }, model())).rejects.toMatchObject({ code: 'CHAT_BUSY' });
    await first.lease.release();
    const second = await h.admit({ chatId, userMessageId: 'm2', content: 'two' }, model());
    expect(second.plan.userMessageId).toBe('m2');
    await second.lease.release();
  });

  it('takes the lease with the runtime’s ttl', async () => {
    const h = turnHarness({ leaseTtlMs: 5_000 });
    const chatId = await h.createChat();
    const acquire = vi.spyOn(h.store.leases, 'acquire');
    const turn = await h.admit({ chatId, userMessageId: 'm1', content: 'x' }, model());
    expect(acquire).toHaveBeenCalledWith(`chat:${chatId}`, { ttlMs: 5_000 });
    h.advanceStoreClock(5_001);
    expect(await leaseIsFree(h, chatId)).toBe(true);
    await turn.lease.release();
  });
});

describe('admitTurn: the trigger’s message', () => {
  it('answers DUPLICATE_MESSAGE for a submit whose message id is stored, and releases the lease it took', async () => {
    const h = turnHarness();
    const chatId = await chatWithHistory(h);
    await expect(h.admit({ chatId, userMessageId: 'u1', content: 'again' }, model())).rejects.toMatchObject({ code: 'DUPLICATE_MESSAGE' });
    expect(await leaseIsFree(h, chatId)).toBe(true);
  });

  it('another user’s stored message id is admitted like a fresh one (ids are scoped to their owner)', async () => {
    const h = turnHarness();
    const bobs = await h.createChat(BOB);
    await h.seed(bobs, [{ id: 'shared-id', role: 'user', content: 'bob' }], BOB);
    const chatId = await h.createChat();
    const turn = await h.admit({ chatId, userMessageId: 'shared-id', content: 'alice' }, model());
    // Bob's row holds the recordId 'shared-id': alice's new row takes her scoped one.
    expect(turn.plan).toEqual({ trigger: 'submit', userMessageId: 'shared-id', content: 'alice', recordId: userMessageRecordId(ALICE.userId, 'shared-id') });
    await turn.lease.release();
    // ...and still a duplicate for its owner, in any of their chats.
    const bobsOther = await h.createChat(BOB);
    await expect(h.admit({ chatId: bobsOther, userMessageId: 'shared-id', content: 'again' }, model(), BOB)).rejects.toMatchObject({
      code: 'DUPLICATE_MESSAGE',
    });
  });

  it('answers DUPLICATE_MESSAGE for the caller’s own assistant message id, and not for another user’s', async () => {
    const h = turnHarness();
    const chatId = await chatWithHistory(h);
    await expect(h.admit({ chatId, userMessageId: 'a1', content: 'x' }, model())).rejects.toMatchObject({ code: 'DUPLICATE_MESSAGE' });
    const bobs = await h.createChat(BOB);
    const turn = await h.admit({ chatId: bobs, userMessageId: 'a1', content: 'x' }, model(), BOB);
    expect(turn.plan.userMessageId).toBe('a1');
    await turn.lease.release();
  });

  it('a user row stored before ids were scoped (recordId = the client’s id) is still its owner’s, and nobody else’s', async () => {
    const h = turnHarness();
    const chatId = await h.createChat();
    await h.server.create(AI_MESSAGES, { chatId, userId: ALICE.userId, role: 'user', content: 'old', parts: [] }, { recordId: 'legacy-u' });
    await expect(h.admit({ chatId, userMessageId: 'legacy-u', content: 'x' }, model())).rejects.toMatchObject({ code: 'DUPLICATE_MESSAGE' });
    const edit = await h.admit({ chatId, trigger: 'edit', userMessageId: 'legacy-u', content: 'new' }, model());
    expect(edit.plan).toEqual({ trigger: 'edit', userMessageId: 'legacy-u', content: 'new' });
    await edit.lease.release();
    const regenerate = await h.admit({ chatId, trigger: 'regenerate' }, model());
    expect(regenerate.plan).toEqual({ trigger: 'regenerate', userMessageId: 'legacy-u' });
    await regenerate.lease.release();
    const bobs = await h.createChat(BOB);
    const bobsTurn = await h.admit({ chatId: bobs, userMessageId: 'legacy-u', content: 'x' }, model(), BOB);
    await bobsTurn.lease.release();
  });

  it('admits edit and regenerate of a user message of the chat', async () => {
    const h = turnHarness();
    const chatId = await chatWithHistory(h);
    const edit = await h.admit({ chatId, trigger: 'edit', userMessageId: 'u1', content: 'first, edited' }, model());
    expect(edit.plan).toEqual({ trigger: 'edit', userMessageId: 'u1', content: 'first, edited' });
    await edit.lease.release();
    const regenerate = await h.admit({ chatId, trigger: 'regenerate', userMessageId: 'u1' }, model());
    expect(regenerate.plan).toEqual({ trigger: 'regenerate', userMessageId: 'u1' });
    await regenerate.lease.release();
  });

  it('answers MESSAGE_NOT_FOUND for an assistant message, another chat’s message or an unknown id, and releases the lease', async () => {
    const h = turnHarness();
    const chatId = await chatWithHistory(h);
    const other = await h.createChat();
    await h.seed(other, [{ id: 'other-u', role: 'user', content: 'elsewhere' }]);
    const bobs = await h.createChat(BOB);
    await h.seed(bobs, [{ id: 'bob-u', role: 'user', content: 'bob' }], BOB);
    for (const trigger of ['edit', 'regenerate'] as const) {
      for (const userMessageId of ['a1', 'other-u', 'bob-u', 'unknown']) {
        const input = trigger === 'edit' ? { chatId, trigger, userMessageId, content: 'x' } : { chatId, trigger, userMessageId };
        await expect(h.admit(input, model()), `${trigger} ${userMessageId}`).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });
        expect(await leaseIsFree(h, chatId)).toBe(true);
      }
    }
  });

  it('regenerate without an id answers the last user message', async () => {
    const h = turnHarness();
    const chatId = await chatWithHistory(h);
    const turn = await h.admit({ chatId, trigger: 'regenerate' }, model());
    expect(turn.plan).toEqual({ trigger: 'regenerate', userMessageId: 'u2' });
    await turn.lease.release();
  });

  it('regenerate without an id picks the last user message even when every row has the same timestamp', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-01-01T00:00:00Z'));
    const h = turnHarness();
    const chatId = await chatWithHistory(h);
    await h.seed(chatId, [{ id: 'u3', role: 'user', content: 'third' }]);
    const turn = await h.admit({ chatId, trigger: 'regenerate' }, model());
    expect(turn.plan.userMessageId).toBe('u3');
    await turn.lease.release();
  });

  it('regenerate in a chat without a user message answers VALIDATION naming userMessageId, and releases the lease', async () => {
    const h = turnHarness();
    const chatId = await h.createChat();
    await expect(h.admit({ chatId, trigger: 'regenerate' }, model())).rejects.toMatchObject({
      code: 'VALIDATION',
      details: { field: 'userMessageId' },
    });
    expect(await leaseIsFree(h, chatId)).toBe(true);
  });
});

describe('admitTurn: per-user limits', () => {
  it('asks the limits with the caller once the request is valid; a refusal is the error, and the lease is released', async () => {
    const refusal = new ChatwireError('RATE_LIMITED', 'Too many turns', { details: { retryAfter: 7 } });
    const admit = vi.fn(async () => {
      throw refusal;
    });
    const h = turnHarness({ limits: { admit } });
    const chatId = await h.createChat();
    await expect(h.admit({ chatId, userMessageId: 'm1', content: 'x' }, model())).rejects.toBe(refusal);
    expect(admit).toHaveBeenCalledWith(ALICE);
    expect(await leaseIsFree(h, chatId)).toBe(true);
  });

  it('is not asked for a request refused anyway (unknown chat, busy chat, duplicate message)', async () => {
    const admit = vi.fn(async () => undefined);
    const h = turnHarness({ limits: { admit } });
    const chatId = await chatWithHistory(h);
    await expect(h.admit({ chatId: 'unknown', userMessageId: 'm1', content: 'x' }, model())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(h.admit({ chatId, userMessageId: 'u1', content: 'x' }, model())).rejects.toMatchObject({ code: 'DUPLICATE_MESSAGE' });
    const held = await h.store.leases.acquire(`chat:${chatId}`, { ttlMs: 1_000 });
    await expect(h.admit({ chatId, userMessageId: 'm2', content: 'x' }, model())).rejects.toMatchObject({ code: 'CHAT_BUSY' });
    await held?.release();
    expect(admit).not.toHaveBeenCalled();
    const turn = await h.admit({ chatId, userMessageId: 'm3', content: 'x' }, model());
    expect(admit).toHaveBeenCalledTimes(1);
    await turn.lease.release();
  });
});
