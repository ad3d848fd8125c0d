import type { UiMessageChunk } from './ui-message-chunk.js';

const PREFIX = '{"type":"text-delta","id":"';
const MIDDLE = '","delta":"';

/**
 * Fast path for the most frequent line, exactly as the AI SDK serialises it (the JSON starting at `start`):
 * `{"type":"text-delta","id":"<id>","delta":"<delta>"}` with no escapes in id or delta. Returns the chunk,
 * equal to what `JSON.parse` + validation would give, or `undefined` to fall back to the general path
 * (escapes, extra fields such as `providerMetadata`, another key order). Cheaper than
 * `JSON.parse` (about 1.5-2x in the bench profile) for these short objects.
 */
export function parseTextDeltaFast(payload: string, start = 0): UiMessageChunk | undefined {
  if (!payload.startsWith(PREFIX, start)) return undefined;
  const idStart = start + PREFIX.length;
  const idEnd = payload.indexOf('"', idStart);
  if (idEnd === -1 || !payload.startsWith(MIDDLE, idEnd)) return undefined;
  const deltaStart = idEnd + MIDDLE.length;
  const deltaEnd = payload.length - 2;
  if (deltaEnd < deltaStart || payload.charCodeAt(deltaEnd) !== 34 || payload.charCodeAt(deltaEnd + 1) !== 125) {
    return undefined;
  }
  if (!plain(payload, idStart, idEnd) || !plain(payload, deltaStart, deltaEnd)) return undefined;
  return { type: 'text-delta', id: payload.slice(idStart, idEnd), delta: payload.slice(deltaStart, deltaEnd) };
}

/** No quote, backslash or control character in [from, to): the raw slice equals its JSON-decoded value. */
function plain(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92) return false;
  }
  return true;
}
