import { ChatwireError } from '@chatwire/storage';
import { bodyCutOff } from './body-cut-off.js';

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** How long one request body may take to arrive, in total. */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export interface ReadJsonBodyOptions {
  /**
   * The whole body must have arrived within this many milliseconds (default 30 s); a slower body is a
   * `TIMEOUT` error (HTTP 408) and its stream is cancelled. `0` turns the limit off.
   */
  timeoutMs?: number;
}

function tooLarge(limit: number): ChatwireError {
  return new ChatwireError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`);
}

function tooSlow(timeoutMs: number): ChatwireError {
  return new ChatwireError('TIMEOUT', `Request body took longer than ${timeoutMs} ms`);
}

/**
 * Reads a JSON body with a byte limit (checked against Content-Length first, then while reading, so an
 * oversized body is never buffered whole) and a time limit for the whole body. An empty body is
 * `undefined`; invalid JSON, or a body cut off before its end (`bodyCutOff`), is a VALIDATION error. On any
 * limit the body stream is cancelled.
 */
export async function readJsonBody(
  request: { readonly headers: { get(name: string): string | null }; readonly body: ReadableStream<Uint8Array> | null },
  limit: number,
  options: ReadJsonBodyOptions = {},
): Promise<unknown> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return undefined;

  const bytes = await readAll(request.body.getReader(), limit, options.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
  if (bytes.byteLength === 0) return undefined;
  const text = new TextDecoder().decode(bytes);
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ChatwireError('VALIDATION', 'Request body is not valid JSON', { details: { field: 'body' } });
  }
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number, timeoutMs: number): Promise<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    // Capped at setTimeout's largest delay: a longer one would fire at once.
    if (timeoutMs > 0) timer = setTimeout(() => reject(tooSlow(timeoutMs)), Math.min(timeoutMs, MAX_TIMER_DELAY_MS));
  });
  deadline.catch(() => undefined); // observed through the race below; never unhandled
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    // Our own limits are ChatwireErrors; anything else is the body's stream failing.
    throw ChatwireError.is(error) ? error : bodyCutOff(error);
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
