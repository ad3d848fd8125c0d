/**
 * The one error type of chatwire. Every package throws it with a code; the server maps codes to
 * HTTP statuses in one table. Recognised across duplicate installs through a `Symbol.for` brand.
 */
export type ChatwireErrorCode =
  // storage and access layer
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'VALIDATION'
  | 'CONFLICT'
  // the database (or another backend) cannot be reached right now; retrying later may work
  | 'UNAVAILABLE'
  // chat routes
  | 'UNAUTHORIZED'
  | 'MODEL_NOT_ALLOWED'
  | 'PROVIDER_NOT_CONFIGURED'
  | 'DUPLICATE_MESSAGE'
  | 'CHAT_BUSY'
  | 'MESSAGE_NOT_FOUND'
  // tool approval: no pending call of that id; a call already answered
  | 'APPROVAL_NOT_FOUND'
  | 'APPROVAL_DECIDED'
  // attachments: over a size limit, a type that is not allowed or not what was declared, not the
  // caller's (or unknown), used by a stored message, not readable by the chosen model
  | 'ATTACHMENT_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'ATTACHMENT_NOT_FOUND'
  | 'ATTACHMENT_IN_USE'
  | 'ATTACHMENT_NOT_SUPPORTED'
  | 'TIMEOUT'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'PAYLOAD_TOO_LARGE'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFIGURATION'
  | 'INTERNAL';

const brand = Symbol.for('chatwire.error');

export interface ChatwireErrorOptions {
  cause?: unknown;
  /** Extra machine-readable detail, e.g. `{ collection, field }`. Never secrets. */
  details?: Record<string, unknown>;
}

export class ChatwireError extends Error {
  readonly code: ChatwireErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly [brand] = true;

  constructor(code: ChatwireErrorCode, message: string, options: ChatwireErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ChatwireError';
    this.code = code;
    this.details = options.details;
  }

  static is(value: unknown, code?: ChatwireErrorCode): value is ChatwireError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[brand] === true &&
      (code === undefined || (value as ChatwireError).code === code)
    );
  }
}

export const isChatwireError = ChatwireError.is;
