import { ChatwireError } from '@chatwire/storage';

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

function tooLarge(limit: number): ChatwireError {
  return new ChatwireError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes`);
}

/**
 * Reads a JSON body with a byte limit (checked against Content-Length first, then while reading, so an
 * oversized body is never buffered whole). An empty body is `undefined`; invalid JSON is a VALIDATION error.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return undefined;

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ChatwireError('VALIDATION', 'Request body is not valid JSON', { details: { field: 'body' } });
  }
}
