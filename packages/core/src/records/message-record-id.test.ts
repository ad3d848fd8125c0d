import { RECORD_ID_PATTERN } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { turnHarness } from '../turn/testing/turn-harness.js';
import { AI_MESSAGES, type MessageData } from './chat-collections.js';
import { findOwnMessage, newUserMessageRecordId, toWireMessage, userMessageRecordId, wireMessageId } from './message-record-id.js';

describe('userMessageRecordId', () => {
  it('is a valid recordId whatever the owner and the id (longest id, odd subjects)', () => {
    for (const userId of ['alice', '', 'auth0|5f7c8ec7c33c6c004bbafe82', 'ü'.repeat(500), 'a\u0000b']) {
      for (const messageId of ['m', 'x'.repeat(128), 'a.b:c_d-e']) {
        expect(userMessageRecordId(userId, messageId)).toMatch(RECORD_ID_PATTERN);
      }
    }
  });

  it('is the same for the same owner and id, and differs for another owner or another id', () => {
    const ids = [
      userMessageRecordId('alice', 'm1'),
      userMessageRecordId('bob', 'm1'),
      userMessageRecordId('alice', 'm2'),
      // The two parts never run into each other.
      userMessageRecordId('alicem', '1'),
      userMessageRecordId('alice', 'm1:'),
    ];
    expect(userMessageRecordId('alice', 'm1')).toBe(ids[0]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never equals a client id a user could send as-is for an assistant row (it is not a UUID)', () => {
    expect(userMessageRecordId('alice', 'm1')).not.toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('wireMessageId and toWireMessage', () => {
  const envelope = (recordId: string, data: Partial<MessageData>) => ({
    recordId,
    data: { chatId: 'c', userId: 'alice', role: 'user' as const, content: 'hi', ...data },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });

  it('a scoped user row is shown with the client’s id and without the internal field', () => {
    const row = envelope(userMessageRecordId('alice', 'm1'), { messageId: 'm1' });
    expect(wireMessageId(row)).toBe('m1');
    expect(toWireMessage(row)).toEqual({ ...row, recordId: 'm1', data: { chatId: 'c', userId: 'alice', role: 'user', content: 'hi' } });
  });

  it('an assistant row, or a user row stored before ids were scoped, is shown as stored', () => {
    const assistant = envelope('asst-1', { role: 'assistant', status: 'complete' });
    expect(wireMessageId(assistant)).toBe('asst-1');
    expect(toWireMessage(assistant)).toBe(assistant);
    const legacy = envelope('old-user-id', {});
    expect(toWireMessage(legacy)).toBe(legacy);
  });
});

describe('findOwnMessage', () => {
  it('finds the owner’s message by the id the client knows, and never another user’s', async () => {
    const h = turnHarness();
    const chatId = await h.createChat();
    await h.seed(chatId, [
      { id: 'u1', role: 'user', content: 'one' },
      { id: 'a1', role: 'assistant', content: 'answer' },
    ]);
    await h.server.create(AI_MESSAGES, { chatId, userId: 'alice', role: 'user', content: 'old' }, { recordId: 'legacy' });
    expect((await findOwnMessage(h.server, 'alice', 'u1'))?.data.content).toBe('one');
    expect((await findOwnMessage(h.server, 'alice', 'a1'))?.data.content).toBe('answer');
    expect((await findOwnMessage(h.server, 'alice', 'legacy'))?.data.content).toBe('old');
    for (const id of ['u1', 'a1', 'legacy']) expect(await findOwnMessage(h.server, 'bob', id)).toBeNull();
    expect(await findOwnMessage(h.server, 'alice', 'unknown')).toBeNull();
    // A scoped recordId sent as a client id is not the message it names.
    expect(await findOwnMessage(h.server, 'alice', userMessageRecordId('alice', 'u1'))).toBeNull();
  });
});

describe('newUserMessageRecordId', () => {
  it('is the client’s id while no row has it, the owner-scoped id once another owner’s row has it, and a duplicate for the owner', async () => {
    const h = turnHarness();
    expect(await newUserMessageRecordId(h.server, 'alice', 'm1')).toEqual({ duplicate: false, recordId: 'm1' });
    await h.server.create(AI_MESSAGES, { chatId: 'c', userId: 'bob', role: 'user', content: 'x', parts: [], messageId: 'm1' }, { recordId: 'm1' });
    expect(await newUserMessageRecordId(h.server, 'alice', 'm1')).toEqual({ duplicate: false, recordId: userMessageRecordId('alice', 'm1') });
    expect(await newUserMessageRecordId(h.server, 'bob', 'm1')).toEqual({ duplicate: true });
    await h.server.create(AI_MESSAGES, { chatId: 'd', userId: 'alice', role: 'user', content: 'y', parts: [], messageId: 'm1' }, { recordId: userMessageRecordId('alice', 'm1') });
    expect(await newUserMessageRecordId(h.server, 'alice', 'm1')).toEqual({ duplicate: true });
  });
});
