import { describe, expect, it } from 'vitest';
import { ChatwireClientError, errorFromResponse, isChatwireClientError } from './chatwire-client-error.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('ChatwireClientError', () => {
  it('is built from the server JSON error body', async () => {
    const error = await errorFromResponse(json(409, { error: { code: 'CHAT_BUSY', message: 'a turn is streaming', details: { chatId: 'c1' } } }));
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ChatwireClientError', code: 'CHAT_BUSY', status: 409, message: 'a turn is streaming', details: { chatId: 'c1' } });
  });

  it.each([
    [502, '<html>Bad gateway</html>', 'INTERNAL', '<html>Bad gateway</html>'],
    [404, '', 'NOT_FOUND', 'HTTP 404 Not Found'],
    [413, 'too big', 'PAYLOAD_TOO_LARGE', 'too big'],
    [418, '{"message":"teapot"}', 'HTTP_ERROR', '{"message":"teapot"}'],
    [400, '{"error":{"code":1}}', 'VALIDATION', '{"error":{"code":1}}'],
  ])('falls back sensibly for status %i with a non-chatwire body', async (status, body, code, message) => {
    const error = await errorFromResponse(new Response(body, { status, statusText: status === 404 ? 'Not Found' : '' }));
    expect({ code: error.code, message: error.message, status: error.status }).toEqual({ code, message, status });
  });

  it('truncates long non-JSON bodies', async () => {
    const error = await errorFromResponse(new Response('x'.repeat(5000), { status: 500 }));
    expect(error.message).toHaveLength(200);
  });

  it('is recognised through its Symbol.for brand, also from another copy of the package', () => {
    const error = new ChatwireClientError('NOT_FOUND', 'gone', { status: 404 });
    expect(isChatwireClientError(error)).toBe(true);
    expect(ChatwireClientError.is(error, 'NOT_FOUND')).toBe(true);
    expect(ChatwireClientError.is(error, 'CHAT_BUSY')).toBe(false);
    const fromOtherCopy = Object.assign(new Error('x'), { code: 'X', [Symbol.for('chatwire.client-error')]: true });
    expect(isChatwireClientError(fromOtherCopy)).toBe(true);
    expect(isChatwireClientError(new Error('x'))).toBe(false);
    expect(isChatwireClientError(null)).toBe(false);
  });
});
