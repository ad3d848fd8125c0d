import { ChatwireError } from '@chatwire/storage';

export interface MultipartFile {
  contentType: string | null;
  filename: string | null;
  /** The part's bytes as they arrive (the rest of the request is not read after them). */
  body: AsyncIterable<Uint8Array>;
}

const MAX_HEADER_BYTES = 16 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

function bad(message: string): ChatwireError {
  return new ChatwireError('VALIDATION', message, { details: { field: 'file' } });
}

/** The boundary of a `multipart/form-data` Content-Type, or null when it is another type. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType.trim())) return null;
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  if (!match) throw bad('multipart/form-data without a boundary');
  return match[1] ?? match[2]!;
}

function headerValue(headers: string, name: string): string | null {
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers);
  return match ? match[1]!.trim() : null;
}

function dispositionParam(disposition: string, param: string): string | null {
  const star = new RegExp(`;\\s*${param}\\*\\s*=\\s*(?:UTF-8|utf-8)''([^;]*)`).exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!);
    } catch {
      return star[1]!;
    }
  }
  const match = new RegExp(`;\\s*${param}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`).exec(disposition);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!.trim();
}

/**
 * Streams the part named `file` out of a `multipart/form-data` body without buffering it: parts before it
 * are skipped, the bytes after it are never read. No `file` part: VALIDATION.
 */
export async function readMultipartFile(source: AsyncIterable<Uint8Array>, boundary: string): Promise<MultipartFile> {
  const iterator = source[Symbol.asyncIterator]();
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The body starts with "--boundary" (no CRLF before it): pretend one came so every delimiter looks alike.
  let buffer: Buffer = Buffer.from('\r\n');
  let done = false;
  const more = async (): Promise<boolean> => {
    if (done) return false;
    const next = await iterator.next();
    if (next.done) {
      done = true;
      return false;
    }
    buffer = Buffer.concat([buffer, next.value]);
    return true;
  };
  const fail = async (error: unknown): Promise<never> => {
    await iterator.return?.().catch(() => undefined);
    throw error;
  };

  try {
    // Skip the preamble up to the first delimiter.
    let at = buffer.indexOf(delimiter);
    while (at < 0) {
      if (buffer.byteLength > MAX_HEADER_BYTES) throw bad('multipart body without its boundary');
      if (!(await more())) throw bad('multipart body without a file part');
      at = buffer.indexOf(delimiter);
    }
    buffer = buffer.subarray(at + delimiter.byteLength);
    for (;;) {
      // After a delimiter: "--" ends the body, else CRLF and the part's headers.
      while (buffer.byteLength < 2 && (await more()));
      if (buffer.subarray(0, 2).toString() === '--') throw bad('multipart body without a file part');
      let end = buffer.indexOf(HEADER_END);
      while (end < 0) {
        if (buffer.byteLength > MAX_HEADER_BYTES) throw bad('multipart part headers are too large');
        if (!(await more())) throw bad('multipart body ends inside part headers');
        end = buffer.indexOf(HEADER_END);
      }
      const headers = buffer.subarray(0, end).toString('utf8');
      buffer = buffer.subarray(end + HEADER_END.byteLength);
      const disposition = headerValue(headers, 'content-disposition') ?? '';
      if (dispositionParam(disposition, 'name') === 'file') {
        return { contentType: headerValue(headers, 'content-type'), filename: dispositionParam(disposition, 'filename'), body: partBody() };
      }
      // Another field: skip to the next delimiter.
      let next = buffer.indexOf(delimiter);
      while (next < 0) {
        if (buffer.byteLength > MAX_HEADER_BYTES) buffer = buffer.subarray(buffer.byteLength - delimiter.byteLength);
        if (!(await more())) throw bad('multipart body without a file part');
        next = buffer.indexOf(delimiter);
      }
      buffer = buffer.subarray(next + delimiter.byteLength);
    }
  } catch (error) {
    return fail(error);
  }

  async function* partBody(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const at = buffer.indexOf(delimiter);
        if (at >= 0) {
          if (at > 0) yield buffer.subarray(0, at);
          await iterator.return?.().catch(() => undefined);
          return;
        }
        // Keep what could be the start of a delimiter cut by a chunk boundary.
        const safe = buffer.byteLength - (delimiter.byteLength - 1);
        if (safe > 0) {
          const out = buffer.subarray(0, safe);
          buffer = buffer.subarray(safe);
          yield out;
        }
        if (!(await more())) throw bad('multipart body ends inside the file part');
      }
    } catch (error) {
      await fail(error);
    }
  }
}
