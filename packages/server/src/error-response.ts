import { ChatwireError, type ChatwireErrorCode } from '@chatwire/storage';
import { jsonReply, replyToResponse, type JsonReply } from './json-reply.js';

/** The one table from error code to HTTP status. */
export const STATUS_BY_CODE: Readonly<Record<ChatwireErrorCode, number>> = {
  VALIDATION: 400,
  MODEL_NOT_ALLOWED: 400,
  PROVIDER_NOT_CONFIGURED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  APPROVAL_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  DUPLICATE_MESSAGE: 409,
  CHAT_BUSY: 409,
  APPROVAL_DECIDED: 409,
  ATTACHMENT_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  ATTACHMENT_NOT_FOUND: 404,
  ATTACHMENT_IN_USE: 409,
  ATTACHMENT_NOT_SUPPORTED: 400,
  TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  CONFIGURATION: 500,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return replyToResponse(jsonReply(status, body, headers));
}

/**
 * `{ "error": { "code", "message" } }` with the status of the table. Anything that is not a ChatwireError
 * (or is a server-side one) is reported through `onError` and answered with a generic 500.
 */
export function errorResponse(error: unknown, onUnexpected: (error: unknown) => void): Response {
  return replyToResponse(errorReply(error, onUnexpected));
}

/** `errorResponse` before it becomes a `Response`. */
export function errorReply(error: unknown, onUnexpected: (error: unknown) => void): JsonReply {
  const known = ChatwireError.is(error) ? STATUS_BY_CODE[error.code] : undefined;
  // 503 is a passing outage (its message is safe and says so); every other 5xx is answered generically.
  if (!ChatwireError.is(error) || known === undefined || (known >= 500 && known !== 503)) {
    onUnexpected(error);
    return jsonReply(500, { error: { code: 'INTERNAL', message: 'Internal server error' } });
  }
  const status = STATUS_BY_CODE[error.code];
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  if (status === 405 && typeof error.details?.allow === 'string') headers.allow = error.details.allow;
  const retryAfter = error.details?.retryAfter;
  if (typeof retryAfter === 'number' && Number.isFinite(retryAfter)) {
    // Whole seconds, never 0: a client told to retry at once would hammer the limit.
    const seconds = Math.max(1, Math.ceil(retryAfter));
    headers['retry-after'] = String(seconds);
    return jsonReply(status, { error: { code: error.code, message: error.message, retryAfter: seconds } }, headers);
  }
  return jsonReply(status, { error: { code: error.code, message: error.message } }, headers);
}
