import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { ChatwireError, concatBytes } from '@chatwire/storage';
import { isTextType } from './attachment-media-types.js';

/** file-type reads at most this many bytes of a file's start. */
const SNIFF_BYTES = 4100;

export interface CheckedUpload {
  /** The bytes as they arrive, checked; throws (and so stores nothing) on the first bad byte or past the limit. */
  body: AsyncIterable<Uint8Array>;
  /** Once `body` is consumed: its size and SHA-256 (hex). */
  result(): { size: number; sha256: string };
}

export interface UploadCheckOptions {
  mediaType: string;
  /** Bytes allowed; the byte past it throws `tooLarge()` without reading further. */
  limit: number;
  tooLarge: () => ChatwireError;
}

function unsupported(message: string): ChatwireError {
  return new ChatwireError('UNSUPPORTED_MEDIA_TYPE', message);
}

/**
 * Reads an upload's first bytes, sniffs its type with `file-type` and checks it against the declared one
 * (rejecting before the rest is read), then passes the bytes on while counting, hashing and, for text,
 * checking UTF-8 without NUL. Resolves once the first bytes are checked.
 */
export async function validateUpload(source: AsyncIterable<Uint8Array>, options: UploadCheckOptions): Promise<CheckedUpload> {
  const iterator = source[Symbol.asyncIterator]();
  const hash = createHash('sha256');
  const text = isTextType(options.mediaType) ? new TextDecoder('utf-8', { fatal: true }) : null;
  let size = 0;
  const take = (chunk: Uint8Array): Uint8Array => {
    size += chunk.byteLength;
    if (size > options.limit) throw options.tooLarge();
    if (text) {
      if (chunk.includes(0)) throw unsupported('A text file must not contain NUL bytes');
      try {
        text.decode(chunk, { stream: true });
      } catch {
        throw unsupported('A text file must be UTF-8');
      }
    }
    hash.update(chunk);
    return chunk;
  };
  const fail = async (error: unknown): Promise<never> => {
    await iterator.return?.().catch(() => undefined);
    throw error;
  };

  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  try {
    while (headBytes < SNIFF_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(take(next.value));
      headBytes += next.value.byteLength;
    }
    if (headBytes === 0) throw new ChatwireError('VALIDATION', 'The file is empty', { details: { field: 'body' } });
    // Most uploads' first chunk holds the whole sniffed start: joined only when it does not.
    const start = head[0]!.byteLength >= SNIFF_BYTES ? head[0]! : concatBytes(head, headBytes);
    const sniffed = await fileTypeFromBuffer(start.subarray(0, SNIFF_BYTES));
    if (text ? sniffed !== undefined : sniffed?.mime !== options.mediaType) {
      throw unsupported(`The bytes are ${sniffed ? sniffed.mime : 'not a known binary type'}, not the declared ${options.mediaType}`);
    }
  } catch (error) {
    return fail(error);
  }

  async function* body(): AsyncGenerator<Uint8Array> {
    yield* head;
    if (ended) {
      finish();
      return;
    }
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        yield take(next.value);
      }
    } catch (error) {
      await fail(error);
    }
    finish();
  }
  const finish = () => {
    if (text) {
      try {
        text.decode();
      } catch {
        throw unsupported('A text file must be UTF-8');
      }
    }
  };
  return { body: body(), result: () => ({ size, sha256: hash.digest('hex') }) };
}
