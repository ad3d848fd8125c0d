/** SSE framing of the UI message stream: one `data: <json>\n\n` event per chunk, then `data: [DONE]`. */
const encoder = new TextEncoder();

export function encodeSseChunk(chunk: object): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
}

/**
 * `encodeSseChunk({ type: 'text-delta', id, delta })` without building the chunk object: the same bytes
 * (JSON.stringify writes the keys in this order and escapes the two strings the same way).
 */
export function encodeTextDelta(id: string, delta: string): Uint8Array {
  return encoder.encode(`data: {"type":"text-delta","id":${JSON.stringify(id)},"delta":${JSON.stringify(delta)}}\n\n`);
}

export const SSE_DONE: Uint8Array = encoder.encode('data: [DONE]\n\n');
