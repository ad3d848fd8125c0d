import type { Action } from './action.js';
import { BatchIterator, ItemIterator } from './async-iterators.js';
import { BatchReader } from './batch-reader.js';
import type { ByteSource } from './byte-source.js';
import { chunkToAction } from './chunk-to-action.js';
import type { DecodeOptions } from './decode-chunks.js';

export interface DecodeActionsOptions extends DecodeOptions {
  /** The signal that aborts the request: a read failing after it fired becomes `abort` (origin `client`). */
  signal?: AbortSignal;
}

/**
 * Body bytes -> actions (spec 6), the stream helper a UI consumes. Never throws while iterating:
 * - chunks that map to no action are skipped (see `CHUNK_TYPES_WITHOUT_ACTION`);
 * - a read failing because the request was aborted yields `{ type: 'abort', origin: 'client' }`;
 * - any other read failure yields `stream-error` with origin `network` and the error's message;
 * - a body that ends without `finish`, `abort` or `error` yields `stream-error` (origin `network`),
 *   so a reducer never stays `streaming` forever after a cut connection.
 */
export function decodeActions(source: ByteSource, options: DecodeActionsOptions = {}): AsyncIterableIterator<Action> {
  return new ItemIterator(actionReader(source, options));
}

/**
 * Same actions and rules as `decodeActions`, delivered as one array per network read: a UI can reduce a
 * whole batch and render once per read instead of once per token (and it is the fastest way to decode).
 */
export function decodeActionBatches(
  source: ByteSource,
  options: DecodeActionsOptions = {},
): AsyncIterableIterator<Action[]> {
  return new BatchIterator(actionReader(source, options));
}

function actionReader(source: ByteSource, options: DecodeActionsOptions): BatchReader<Action> {
  let terminal = false;
  const { signal } = options;
  return new BatchReader<Action>(source, {
    onChunk: (chunk, out) => {
      const action = chunkToAction(chunk);
      if (action === undefined) return;
      if (action.type === 'finish' || action.type === 'abort' || action.type === 'stream-error') terminal = true;
      out.push(action);
    },
    onEnd: (out) => {
      if (!terminal) {
        out.push({ type: 'stream-error', errorText: 'The stream ended before the turn finished.', origin: 'network' });
      }
    },
    onReadError: (error, out) => {
      if (terminal) return true; // e.g. the connection dropped after `finish` but before `[DONE]`
      if (signal?.aborted || isAbortError(error)) out.push({ type: 'abort', origin: 'client' });
      else out.push({ type: 'stream-error', errorText: errorMessage(error), origin: 'network' });
      return true;
    },
    ...(options.onSkippedLine ? { onSkippedLine: options.onSkippedLine } : {}),
  });
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return typeof error === 'string' && error ? error : 'Reading the stream failed.';
}
