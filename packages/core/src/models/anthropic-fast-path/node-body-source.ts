import { bodyFailure, onConnectionLost, takeNodeBody } from '../node-http-fetch.js';
import type { BodySink, BodySource } from './anthropic-fast-path-stream.js';

/** Bytes read ahead of the parser before the socket is paused (as `createNodeHttpFetch`'s web body). */
const READ_AHEAD = 65_536;

/**
 * The body of an answer of chatwire's `createNodeHttpFetch` read straight from its Node stream (no web
 * stream in between), or null for any other answer. It ends and fails as that fetch's web body does: the
 * call's abort errors it with the signal's reason, a lost connection with `TypeError('terminated', { cause })`.
 */
export function nodeBodySource(response: Response): BodySource | null {
  const body = takeNodeBody(response);
  if (body === null) return null;
  const { source, res, signal } = body;
  const chunks: Uint8Array[] = [];
  let buffered = 0;
  let ended = false;
  let failure: { error: unknown } | null = null;
  let waiting: { resolve: (chunk: Uint8Array | null) => void; reject: (error: unknown) => void } | null = null;
  let finished = false;
  /** Set by `flow`: chunks go straight to it. */
  let sink: BodySink | null = null;
  let sinkPaused = false;
  let cancelled = false;

  const finish = () => {
    if (finished) return;
    finished = true;
    signal?.removeEventListener('abort', onAbort);
    body.done();
  };
  const fail = (error: unknown) => {
    if (finished) return;
    finish();
    failure = { error: bodyFailure(signal, error) };
    if (sink !== null) return sink.error(failure.error);
    if (waiting !== null) {
      const w = waiting;
      waiting = null;
      w.reject(failure.error);
    }
  };
  const onAbort = () => fail(signal!.reason);

  source.on('data', (chunk: Buffer) => {
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (sink !== null) return sink.chunk(bytes);
    if (waiting !== null) {
      const w = waiting;
      waiting = null;
      return w.resolve(bytes);
    }
    chunks.push(bytes);
    buffered += bytes.byteLength;
    if (buffered >= READ_AHEAD) source.pause();
  });
  source.once('end', () => {
    if (finished) return;
    finish();
    ended = true;
    if (sink !== null) return sink.end();
    if (waiting !== null) {
      const w = waiting;
      waiting = null;
      w.resolve(null);
    }
  });
  source.once('error', fail);
  onConnectionLost(res, fail);
  signal?.addEventListener('abort', onAbort, { once: true });

  return {
    read() {
      if (chunks.length > 0) {
        const chunk = chunks.shift()!;
        buffered -= chunk.byteLength;
        if (buffered < READ_AHEAD && source.isPaused()) source.resume();
        return Promise.resolve(chunk);
      }
      if (failure !== null) return Promise.reject(failure.error);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    },
    flow(to) {
      sink = to;
      while (chunks.length > 0 && !cancelled) {
        const chunk = chunks.shift()!;
        buffered -= chunk.byteLength;
        to.chunk(chunk);
      }
      if (cancelled) return;
      if (failure !== null) return to.error(failure.error);
      if (ended) return to.end();
      if (!sinkPaused && source.isPaused()) source.resume();
    },
    pause() {
      sinkPaused = true;
      source.pause();
    },
    resume() {
      sinkPaused = false;
      if (!finished && source.isPaused()) source.resume();
    },
    cancel() {
      cancelled = true;
      if (finished) return;
      finish();
      ended = true;
      res.destroy();
    },
  };
}
