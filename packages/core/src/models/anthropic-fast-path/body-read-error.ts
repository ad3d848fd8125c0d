import { APICallError } from '@ai-sdk/provider';
import { isAbortError } from '@ai-sdk/provider-utils';

/** What the package's response is, for its errors. */
export interface ResponseContext {
  url: string;
  statusCode: number;
  responseHeaders: Record<string, string> | undefined;
  requestBodyValues: unknown;
}

const NETWORK_ERROR_CODES = new Set([
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * The error a body read failure ends the stream with, as @ai-sdk/provider-utils@3 makes it
 * (`wrapResponseBodyStream` then `handleFetchError`): an abort error as it is; otherwise an `APICallError`
 * 'Failed to process successful response' with the read error as its cause, retryable when a network error
 * (ECONNRESET, ...) is in its cause chain.
 */
export function bodyReadError(error: unknown, context: ResponseContext): unknown {
  if (isAbortError(error)) return error;
  const wrapped = {
    message: 'Failed to process successful response',
    cause: error,
    statusCode: context.statusCode,
    url: context.url,
    responseHeaders: context.responseHeaders,
    requestBodyValues: context.requestBodyValues,
  };
  return new APICallError({ ...wrapped, ...(hasNetworkError(error) ? { isRetryable: true } : {}) });
}

function hasNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}
