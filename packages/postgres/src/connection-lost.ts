import { ChatwireError } from '@chatwire/storage';

/**
 * SQLSTATE classes and codes meaning the connection, not the statement, failed: 08 (connection
 * exception), 57P01..57P03 (terminated by an administrator, crash shutdown, cannot connect now).
 */
const LOST_SQLSTATE = /^(08|57P0[1-3])/;
/** Socket-level failures, and pg's own messages for a connection that died under a client. */
const LOST_ERRNO = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN', 'ECONNABORTED']);
const LOST_MESSAGE = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect/i;

/** True when `error` says the database connection was lost (as opposed to a statement that failed). */
export function isConnectionLost(error: unknown): boolean {
  if (ChatwireError.is(error)) return error.code === 'UNAVAILABLE';
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (LOST_SQLSTATE.test(code) || LOST_ERRNO.has(code))) return true;
  return typeof message === 'string' && LOST_MESSAGE.test(message);
}

/** The error every statement and transaction rejects with when the connection was lost. */
export function connectionLost(cause: unknown): ChatwireError {
  if (ChatwireError.is(cause, 'UNAVAILABLE')) return cause;
  return new ChatwireError('UNAVAILABLE', 'The database connection was lost', { cause });
}
