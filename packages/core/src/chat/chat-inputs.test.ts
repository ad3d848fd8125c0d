import { ChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { parseCreateChatInput, parseListChatsInput, parseRenameChatInput, parseTurnInput } from './chat-inputs.js';

function failure(run: () => unknown): { message: string; field: unknown } {
  try {
    run();
  } catch (error) {
    expect(ChatwireError.is(error, 'VALIDATION')).toBe(true);
    const e = error as ChatwireError;
    return { message: e.message, field: (e.details as { field?: unknown } | undefined)?.field };
  }
  throw new Error('expected a VALIDATION error');
}

describe('parseTurnInput', () => {
  it('defaults the trigger to submit and keeps the fields', () => {
    expect(parseTurnInput({ chatId: 'c1', userMessageId: 'u1', content: 'hi', extra: 1 })).toEqual({
      chatId: 'c1',
      trigger: 'submit',
      userMessageId: 'u1',
      content: 'hi',
      modelId: undefined,
    });
  });

  it('regenerate carries no content and an optional userMessageId', () => {
    expect(parseTurnInput({ chatId: 'c1', trigger: 'regenerate' })).toEqual({
      chatId: 'c1',
      trigger: 'regenerate',
      userMessageId: undefined,
      modelId: undefined,
    });
    expect(failure(() => parseTurnInput({ chatId: 'c1', trigger: 'regenerate', content: 'x' }))).toEqual({
      message: "'content' must not be sent with trigger 'regenerate'",
      field: 'content',
    });
  });

  it.each([
    [null, 'Request body must be a JSON object', 'body'],
    [[1], 'Request body must be a JSON object', 'body'],
    [{ userMessageId: 'u1', content: 'hi' }, "'chatId' must be a string, got undefined", 'chatId'],
    [{ chatId: 'a b', userMessageId: 'u1', content: 'hi' }, "'chatId' must be 1-128 characters of A-Z a-z 0-9 . _ : -", 'chatId'],
    [{ chatId: 'c', trigger: 'redo', userMessageId: 'u1', content: 'hi' }, "'trigger' must be one of submit, edit, regenerate, approval", 'trigger'],
    [{ chatId: 'c', content: 'hi' }, "'userMessageId' must be a string, got undefined", 'userMessageId'],
    [{ chatId: 'c', trigger: 'edit', userMessageId: 'u1' }, "'content' must be a string, got undefined", 'content'],
    [{ chatId: 'c', userMessageId: 'u1', content: ['a'] }, "'content' must be a string, got array", 'content'],
    [{ chatId: 'c', userMessageId: 'u1', content: '  ' }, "'content' must not be empty", 'content'],
    [{ chatId: 'c', trigger: 'approval' }, "'approvals' must be an array of { toolCallId, approved, reason? }", 'approvals'],
    [{ chatId: 'c', trigger: 'approval', approvals: [] }, "'approvals' must answer every pending tool call", 'approvals'],
    [{ chatId: 'c', trigger: 'approval', approvals: [{ toolCallId: 'x', approved: 'yes' }] }, "'approved' must be true or false", 'approvals'],
    [{ chatId: 'c', trigger: 'approval', approvals: [{ toolCallId: 'x', approved: true }], content: 'hi' }, "'content' must not be sent with trigger 'approval'", 'content'],
  ])('%j is a VALIDATION error naming the field', (body, message, field) => {
    expect(failure(() => parseTurnInput(body))).toEqual({ message, field });
  });

  it('an approval carries its answers (a null reason is dropped)', () => {
    expect(parseTurnInput({ chatId: 'c', trigger: 'approval', approvals: [{ toolCallId: 'a', approved: true, reason: null }, { toolCallId: 'b', approved: false, reason: 'no' }] })).toEqual({
      chatId: 'c',
      trigger: 'approval',
      approvals: [{ toolCallId: 'a', approved: true }, { toolCallId: 'b', approved: false, reason: 'no' }],
      modelId: undefined,
    });
  });

  it('passes any modelId on to the model registry (which answers MODEL_NOT_ALLOWED)', () => {
    expect(parseTurnInput({ chatId: 'c', userMessageId: 'u', content: 'x', modelId: 42 }).modelId).toBe(42);
    expect(parseTurnInput({ chatId: 'c', userMessageId: 'u', content: 'x', modelId: null }).modelId).toBeUndefined();
  });
});

describe('chat bodies and the list query', () => {
  it('trims titles and checks them', () => {
    expect(parseCreateChatInput(undefined)).toEqual({});
    expect(parseCreateChatInput({ title: '  Trip  ' })).toEqual({ title: 'Trip' });
    expect(parseRenameChatInput({ title: 'x' })).toEqual({ title: 'x' });
    expect(failure(() => parseRenameChatInput({}))).toEqual({ message: "'title' must be a string, got undefined", field: 'title' });
    expect(failure(() => parseCreateChatInput({ title: ' ' }))).toEqual({ message: "'title' must not be empty", field: 'title' });
    expect(failure(() => parseCreateChatInput({ title: 'x'.repeat(501) }))).toEqual({
      message: "'title' must be at most 500 characters",
      field: 'title',
    });
  });

  it('reads limit as an integer from 1 to 100 and ignores empty values', () => {
    expect(parseListChatsInput({ limit: '5', cursor: 'abc' })).toEqual({ limit: 5, cursor: 'abc' });
    expect(parseListChatsInput({ limit: '', cursor: null })).toEqual({});
    expect(parseListChatsInput({})).toEqual({});
    expect(parseListChatsInput({ cursor: 'abc' })).toEqual({ cursor: 'abc' });
    expect(failure(() => parseListChatsInput({ cursor: ['a', 'b'] as never }))).toMatchObject({ field: 'cursor' });
    for (const limit of ['0', '101', '1.5', 'ten']) {
      expect(failure(() => parseListChatsInput({ limit }))).toEqual({ message: "'limit' must be an integer from 1 to 100", field: 'limit' });
    }
  });
});
