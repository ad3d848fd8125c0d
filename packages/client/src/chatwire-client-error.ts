const brand = Symbol.for('chatwire.client-error');

/**
 * Codes: the server's own (`VALIDATION`, `UNAUTHORIZED`, `NOT_FOUND`, `MODEL_NOT_ALLOWED`,
 * `DUPLICATE_MESSAGE`, `CHAT_BUSY`, `PAYLOAD_TOO_LARGE`, `INTERNAL`, ...) taken from the JSON error body,
 * plus client-side ones: `NETWORK_ERROR` (fetch rejected, status 0), `INVALID_RESPONSE` (a success
 * response the client cannot read), `HTTP_ERROR` (a non-JSON error body with an unmapped status).
 */
export type ChatwireClientErrorCode = string;

export interface ChatwireClientErrorOptions {
  /** HTTP status; 0 when no response was received. */
  status: number;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Every failure of the route client and the transport. Recognise it with `ChatwireClientError.is(e)`
 * (works across duplicate installs of this package: a `Symbol.for` brand, not `instanceof`).
 */
export class ChatwireClientError extends Error {
  readonly code: ChatwireClientErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly [brand] = true;

  constructor(code: ChatwireClientErrorCode, message: string, options: ChatwireClientErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ChatwireClientError';
    this.code = code;
    this.status = options.status;
    this.details = options.details;
  }

  static is(value: unknown, code?: ChatwireClientErrorCode): value is ChatwireClientError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true &&
      (code === undefined || (value as ChatwireClientError).code === code)
    );
  }
}

export const isChatwireClientError = ChatwireClientError.is;

/** Status -> code for error bodies that are not chatwire JSON (a proxy's HTML page, an empty 502...). */
const FALLBACK_CODES: Record<number, string> = {
  400: 'VALIDATION',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

/**
 * Builds the error from a non-OK response: `{ error: { code, message, details? } }` when the body is
 * chatwire JSON; otherwise a code from the status (5xx -> `INTERNAL`, others `HTTP_ERROR`) and the body's
 * first 200 characters (or the status text) as the message.
 */
export async function errorFromResponse(response: Response): Promise<ChatwireClientError> {
  const status = response.status;
  let text = '';
  try {
    text = await response.text();
  } catch {
    // body unreadable: fall back to the status below
  }
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; details?: unknown } };
    const e = body?.error;
    if (e && typeof e.code === 'string' && typeof e.message === 'string') {
      const details = typeof e.details === 'object' && e.details !== null ? (e.details as Record<string, unknown>) : undefined;
      return new ChatwireClientError(e.code, e.message, details ? { status, details } : { status });
    }
  } catch {
    // not JSON
  }
  const code = FALLBACK_CODES[status] ?? (status >= 500 ? 'INTERNAL' : 'HTTP_ERROR');
  const trimmed = text.trim().slice(0, 200);
  const message = trimmed || `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return new ChatwireClientError(code, message, { status });
}
