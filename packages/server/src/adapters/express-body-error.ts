import type { ChatwireErrorCode } from '@chatwire/storage';
import { STATUS_BY_CODE } from '../error-response.js';

/** An error raised by Express's body parsers (`body-parser` / `raw-body`, via `http-errors`). */
interface BodyParserError {
  type: string;
  status: number;
  limit?: unknown;
  message: string;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  if (typeof error !== 'object' || error === null) return false;
  const { type, status } = error as { type?: unknown; status?: unknown };
  return typeof type === 'string' && typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * chatwire's answer to a request body that Express's own parser (`express.json()` and friends) rejected:
 * the code, status and message chatwire gives when it reads the body itself, or `undefined` for any other
 * error (left to the app).
 */
export function expressBodyError(error: unknown): { status: number; code: ChatwireErrorCode; message: string } | undefined {
  if (!isBodyParserError(error)) return undefined;
  if (error.status === 413) {
    const limit = typeof error.limit === 'number' ? error.limit : undefined;
    const message = limit === undefined ? 'Request body is too large' : `Request body is larger than ${limit} bytes`;
    return { status: STATUS_BY_CODE.PAYLOAD_TOO_LARGE, code: 'PAYLOAD_TOO_LARGE', message };
  }
  if (error.type === 'entity.parse.failed') {
    return { status: STATUS_BY_CODE.VALIDATION, code: 'VALIDATION', message: 'Request body is not valid JSON' };
  }
  // Unsupported charset or encoding, a body shorter than its Content-Length, a failed `verify`: the
  // parser's own messages are meant for clients (`expose`), so they are kept.
  return { status: STATUS_BY_CODE.VALIDATION, code: 'VALIDATION', message: `Request body could not be read: ${error.message}` };
}
