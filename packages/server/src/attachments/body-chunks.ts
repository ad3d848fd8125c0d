import { ChatwireError } from '@chatwire/storage';

/**
 * A request body as chunks, with an idle limit: no byte for `idleMs` is a 408 `TIMEOUT` (an upload may take
 * long, but never stall). Stopping early (an error, a limit) cancels the stream, so nothing more is read.
 */
export async function* bodyChunks(body: ReadableStream<Uint8Array>, idleMs: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const idle =
        idleMs > 0
          ? new Promise<never>((_resolve, reject) => {
              timer = setTimeout(() => reject(new ChatwireError('TIMEOUT', `No upload bytes arrived for ${idleMs} ms`)), idleMs);
            })
          : null;
      idle?.catch(() => undefined);
      try {
        const { done, value } = await (idle ? Promise.race([reader.read(), idle]) : reader.read());
        if (done) {
          finished = true;
          return;
        }
        if (value.byteLength > 0) yield value;
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
