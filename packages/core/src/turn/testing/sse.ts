/** A decoded SSE body of a turn: its chunks in order, and how many `[DONE]` events it held. */
export interface DecodedSse {
  chunks: Array<Record<string, unknown> & { type: string }>;
  /** `[DONE]` events seen. */
  dones: number;
  /** True when the body's last event is `[DONE]`. */
  endsWithDone: boolean;
}

const decoder = new TextDecoder();

/** Every byte of a stream, concatenated. */
export async function readBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return concatBytes(parts);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Splits SSE bytes into `data:` events; throws on anything that is not `data: <json>` or `data: [DONE]`. */
export function decodeSse(bytes: Uint8Array | string): DecodedSse {
  const text = typeof bytes === 'string' ? bytes : decoder.decode(bytes);
  const events = text.split('\n\n');
  if (events.pop() !== '') throw new Error(`SSE body does not end with a blank line: ${JSON.stringify(text.slice(-40))}`);
  const chunks: DecodedSse['chunks'] = [];
  let dones = 0;
  let last = '';
  for (const event of events) {
    if (!event.startsWith('data: ')) throw new Error(`not an SSE data event: ${JSON.stringify(event)}`);
    const data = event.slice('data: '.length);
    last = data;
    if (data === '[DONE]') dones++;
    else chunks.push(JSON.parse(data) as DecodedSse['chunks'][number]);
  }
  return { chunks, dones, endsWithDone: last === '[DONE]' };
}

/** The chunk types of a decoded body, in order (text deltas collapsed into one entry per run). */
export function chunkTypes(decoded: DecodedSse): string[] {
  const out: string[] = [];
  for (const chunk of decoded.chunks) if (!(chunk.type === 'text-delta' && out[out.length - 1] === 'text-delta')) out.push(chunk.type);
  return out;
}

/** The text the body's text deltas add up to. */
export function streamedText(decoded: DecodedSse): string {
  return decoded.chunks
    .filter((chunk) => chunk.type === 'text-delta')
    .map((chunk) => String(chunk.delta))
    .join('');
}
