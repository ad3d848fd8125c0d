/**
 * Reads a response body until the text received so far contains `needle` (or the body ends).
 * Returns everything read; the reader stays usable for the rest.
 */
export async function readStreamUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  needle: string | null,
  soFar = '',
): Promise<string> {
  const decoder = new TextDecoder();
  let text = soFar;
  while (needle === null || !text.includes(needle)) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

/** The JSON payloads of the `data:` lines of an SSE text (the `[DONE]` line excluded). */
export function sseChunks(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}
