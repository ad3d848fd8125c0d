/** Test support: byte sources built from fixed pieces. */
export function streamOfPieces(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]!);
      else controller.close();
    },
  });
}

export async function* iterableOfPieces(pieces: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield piece;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const enc = new TextEncoder();
export const sseBytes = (...chunks: unknown[]): Uint8Array =>
  enc.encode(chunks.map((c) => (typeof c === 'string' ? c : `data: ${JSON.stringify(c)}\n\n`)).join(''));
