import { ChatwireError } from '@chatwire/storage';
import { bodyCutOff } from '../body-cut-off.js';

/**
 * A request body as chunks, with an idle limit: no byte for `idleMs` is a 408 `TIMEOUT` (an upload may take
 * long, but never stall). Stopping early (an error, a limit) cancels the stream, so nothing more is read.
 * A stream that fails (the client went away mid-body) is a VALIDATION error (`bodyCutOff`), never reported.
 *
 * One timer for the whole body, pushed back before every read (`refresh`); when it fires during a read it
 * cancels the stream, which ends that read. No timer or race promise per chunk.
 */
export async function* bodyChunks(body: ReadableStream<Uint8Array>, idleMs: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  let stalled = false;
  let reading = false;
  const timer =
    idleMs > 0
      ? setTimeout(function onIdle() {
          // Only the client's idleness counts, never the consumer's own time (a slow store).
          if (!reading) return void timer!.refresh();
          stalled = true;
          reader.cancel().catch(() => undefined);
        }, idleMs)
      : undefined;
  const timeout = () => new ChatwireError('TIMEOUT', `No upload bytes arrived for ${idleMs} ms`);
  try {
    for (;;) {
      timer?.refresh();
      reading = true;
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        throw bodyCutOff(error);
      }
      reading = false;
      const { done, value } = read;
      if (stalled) throw timeout();
      if (done) {
        finished = true;
        return;
      }
      if (value.byteLength > 0) yield value;
    }
  } finally {
    clearTimeout(timer);
    if (!finished && !stalled) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
