/** A response body or any async iterable of byte pieces (e.g. a Node stream). */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** Pull interface over a `ByteSource`; `cancel` releases the underlying connection. */
export interface ByteReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

/** Uses `getReader()` for web streams (Safari's have no async iterator), the async iterator otherwise. */
export function openByteReader(source: ByteSource): ByteReader {
  if (typeof (source as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array>).getReader();
    return {
      read: () => reader.read() as ReturnType<ByteReader['read']>,
      cancel: (reason) => reader.cancel(reason),
    };
  }
  const it = (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  return {
    read: () => it.next() as ReturnType<ByteReader['read']>,
    cancel: async () => {
      await it.return?.();
    },
  };
}
