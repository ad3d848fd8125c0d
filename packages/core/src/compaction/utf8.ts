/** UTF-8 helpers for byte caps. Use Node's native counter when present, a plain loop elsewhere (browsers, workers). */

interface ByteCounter {
  byteLength(text: string, encoding: 'utf8'): number;
}
const nodeBuffer = (globalThis as { Buffer?: ByteCounter }).Buffer;
const encoder = new TextEncoder();

/** Number of bytes of `text` encoded as UTF-8 (a lone surrogate counts as the 3-byte replacement character). */
export function utf8ByteLength(text: string): number {
  if (nodeBuffer) return nodeBuffer.byteLength(text, 'utf8');
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** True when `text` is longer than `maxBytes` in UTF-8. Counts bytes only when the length alone cannot tell. */
export function exceedsUtf8Bytes(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true; // every UTF-16 code unit needs at least one byte
  if (text.length * 3 <= maxBytes) return false; // no code unit needs more than three bytes
  return utf8ByteLength(text) > maxBytes;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that does not split a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (!exceedsUtf8Bytes(text, maxBytes)) return text;
  const candidate = text.slice(0, maxBytes);
  const { read } = encoder.encodeInto(candidate, new Uint8Array(maxBytes));
  let end = read;
  // slice() may have cut a surrogate pair; never end on half of one.
  if (end > 0 && isHighSurrogate(candidate.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end--;
  return candidate.slice(0, end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
