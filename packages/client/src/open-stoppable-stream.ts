import type { UIMessageChunk } from 'ai';
import { ChatwireClientError } from './chatwire-client-error.js';
import { decodeChunks, type DecodeOptions } from './decode-chunks.js';
import type { OpenTurn } from './post-turn.js';

/**
 * A turn's stream for the AI SDK, whose `abortSignal` means "stop": when it fires, the server is first asked
 * to stop the turn (`stop`, which answers once the partial answer is stored) and only then is the connection
 * closed. Closing first would be a client disconnect, which (server option `onDisconnect: 'abort'`, the
 * default) discards the answer. An abort that comes before the response headers waits for them: until then
 * the server may not have started the turn, and a stop would find nothing to stop. The connection stays open
 * (and is read on) until `stop` settled: answered, or failed for good after its retries.
 *
 * `open` gets the signal of the connection (not the caller's); it resolves null when there is no stream
 * (then this resolves null). The returned stream is pull-based (one chunk per pull, so back-pressure reaches
 * the network reader); cancelling it closes the connection, after the stop when the signal fired.
 */
export async function openStoppableStream({
  open,
  stop,
  abortSignal,
  decode,
  onStopping,
  stillStops = () => true,
  mapChunk,
}: {
  open: (signal: AbortSignal) => Promise<OpenTurn | null>;
  /** Asks the server to stop the turn; settles once answered or failed for good (it does its own retries). */
  stop: () => Promise<unknown>;
  abortSignal: AbortSignal | undefined;
  decode: DecodeOptions;
  /** Gets the promise of "stop, then close" when the signal fires; it never rejects. */
  onStopping?: (stopping: Promise<void>) => void;
  /** Asked once the headers arrived after the signal fired: false makes the abort a plain close (default true). */
  stillStops?: () => boolean;
  /** Replaces each decoded chunk by what it returns (one chunk or several, in order); default none. */
  mapChunk?: (chunk: UIMessageChunk) => UIMessageChunk | UIMessageChunk[];
}): Promise<ReadableStream<UIMessageChunk> | null> {
  const connection = new AbortController();
  const opening = open(connection.signal);
  let closing: Promise<void> | undefined;
  const stopThenClose = (): Promise<void> => {
    if (closing) return closing;
    closing = (async () => {
      const started = await opening.then(
        (turn) => turn !== null,
        () => false,
      );
      if (started && stillStops()) await stop().catch(() => undefined);
      connection.abort();
    })();
    onStopping?.(closing);
    return closing;
  };
  const onAbort = () => void stopThenClose();
  const forget = () => abortSignal?.removeEventListener('abort', onAbort);
  if (abortSignal?.aborted) onAbort();
  else abortSignal?.addEventListener('abort', onAbort, { once: true });

  let turn: OpenTurn | null;
  try {
    turn = await opening;
  } catch (error) {
    forget();
    throw error;
  }
  if (turn === null) {
    forget();
    return null;
  }
  const chunks = decodeChunks(turn.body, decode);
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      let next: IteratorResult<unknown>;
      try {
        next = await chunks.next();
      } catch (error) {
        forget();
        throw asReadError(error);
      }
      if (next.done) {
        forget();
        controller.close();
      } else if (mapChunk) {
        const mapped = mapChunk(next.value as UIMessageChunk);
        if (Array.isArray(mapped)) for (const chunk of mapped) controller.enqueue(chunk);
        else controller.enqueue(mapped);
      } else {
        controller.enqueue(next.value as UIMessageChunk);
      }
    },
    async cancel() {
      if (abortSignal?.aborted) await stopThenClose();
      forget();
      connection.abort();
      await chunks.return?.();
    },
  });
}

/**
 * A failed read becomes `NETWORK_ERROR` (aborts stay as they are). Not a `TypeError`: the AI SDK would take
 * that for a resumable disconnect and, on `resumeStream()`, append the replayed turn (which starts from its
 * first chunk) to the partial message it kept, repeating its text. As a plain error, a resume rebuilds the
 * message from the replay and replaces the partial one (same id, `X-Asst-Id`).
 */
function asReadError(error: unknown): unknown {
  if ((error as { name?: unknown } | null)?.name === 'AbortError') return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ChatwireClientError('NETWORK_ERROR', `The connection was lost: ${reason}`, { status: 0, cause: error });
}
