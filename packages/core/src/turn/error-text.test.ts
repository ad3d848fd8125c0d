import { APICallError, RetryError } from 'ai';
import { ChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { safeErrorText, toolErrorText } from './error-text.js';

describe('safeErrorText: what a client may see of a provider or internal error', () => {
  it('gives the status of a provider error, never its body, URL or headers', () => {
    const error = new APICallError({
      message: 'Unauthorized: key sk-live-123 rejected',
      url: 'https://gateway.test/v1?key=sk-live-123',
      requestBodyValues: {},
      statusCode: 401,
      responseBody: '{"error":"sk-live-123"}',
    });
    expect(safeErrorText(error)).toBe('The model provider returned an error (status 401).');
  });

  it('keeps the message of a client-facing ChatwireError', () => {
    expect(safeErrorText(new ChatwireError('CHAT_BUSY', 'A turn of this chat is still streaming'))).toBe(
      'A turn of this chat is still streaming',
    );
  });

  it.each(['INTERNAL', 'CONFIGURATION'] as const)('hides the message of a server-side %s error', (code) => {
    const text = safeErrorText(new ChatwireError(code, 'PROVIDER_A_BASE_URL=https://user:pw@gw.internal is bad'));
    expect(text).toBe('The model call failed.');
  });

  it('names the last status and the attempts of a provider error retried out', () => {
    const attempt = (status: number) =>
      new APICallError({ message: 'overloaded', url: 'https://x.test', requestBodyValues: {}, statusCode: status, isRetryable: true });
    const error = new RetryError({ message: 'Failed after 3 attempts', reason: 'maxRetriesExceeded', errors: [attempt(529), attempt(503), attempt(503)] });
    expect(safeErrorText(error)).toBe('The model provider returned an error (status 503) after 3 attempts.');
  });

  it('says the connection was lost when it dropped after a 2xx answer, not "(status 200)"', () => {
    const processing = new APICallError({
      message: 'Failed to process successful response',
      url: 'https://x.test',
      requestBodyValues: {},
      statusCode: 200,
      cause: new TypeError('terminated'),
    });
    expect(safeErrorText(processing)).toBe('The connection to the model provider was lost.');
    expect(safeErrorText(new TypeError('terminated: other side closed'))).toBe('The connection to the model provider was lost.');
  });

  it('says the provider could not be reached when no answer came', () => {
    const refused = new APICallError({ message: 'Cannot connect to API: connect ECONNREFUSED', url: 'https://x.test', requestBodyValues: {} });
    expect(safeErrorText(refused)).toBe('The model provider could not be reached.');
  });

  it('hides plain errors and their stacks', () => {
    expect(safeErrorText(new Error('connect ECONNREFUSED 10.0.0.5:5432'))).toBe('The model call failed.');
  });
});

describe('toolErrorText', () => {
  it('is the message only, never the stack', () => {
    const error = new Error('records.get: Record "x" not found');
    expect(toolErrorText(error)).toBe('records.get: Record "x" not found');
    expect(toolErrorText({ stack: 'at x' })).toBe('The tool failed.');
  });
});
