import { APICallError, type LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { createAnthropicStreamParts } from './anthropic-stream-parts.js';
import { bodyReadError, type ResponseContext } from './body-read-error.js';
import { createSseSplitter } from './split-sse-events.js';

/** A body's bytes: a web stream's reader, or a source that calls back (see `nodeBodySource`). */
export interface BodySource {
  /** The next chunk, or null at the end; rejects as the body's read rejects. */
  read(): Promise<Uint8Array | null>;
  cancel(reason?: unknown): void;
  /**
   * Optional: from now on hands each chunk to `sink` as it arrives (first those read ahead), instead of
   * `read()`; `pause`/`resume` stop and restart the flow (the socket is paused meanwhile).
   */
  flow?(sink: BodySink): void;
  pause?(): void;
  resume?(): void;
}

/** Where a flowing body's chunks go; after `end` or `error` nothing more comes. */
export interface BodySink {
  chunk(bytes: Uint8Array): void;
  end(): void;
  error(error: unknown): void;
}

/** Parts queued before the body is paused (a flowing source only). */
const PARTS_AHEAD = 64;

export function webBodySource(body: ReadableStream<Uint8Array>): BodySource {
  const reader = body.getReader();
  return {
    read: () => reader.read().then((r) => (r.done ? null : r.value)),
    cancel: (reason) => void reader.cancel(reason).catch(() => {}),
  };
}

/**
 * The parts of an Anthropic Messages SSE body, as @ai-sdk/anthropic@2's `doStream` returns them: resolves
 * once the first part after `streamStart` is there (or the body ended), as the package does; throws the
 * package's `APICallError` when that part is an `error` (529 and retryable for `overloaded_error`, else 500),
 * or the read error when the body fails first. The stream then gives `streamStart`, the parts, and ends
 * when the body ends; a failed read (abort, lost connection) errors it as the package's stream errors.
 * A source that can flow (the Node body) hands its chunks over as they arrive: each is parsed and its parts
 * enqueued at once, with no read or promise per chunk, and the body is paused while PARTS_AHEAD parts wait.
 */
export async function anthropicFastPathStream(
  source: BodySource,
  streamStart: LanguageModelV2StreamPart,
  context: ResponseContext,
): Promise<ReadableStream<LanguageModelV2StreamPart>> {
  let queue: LanguageModelV2StreamPart[] = [];
  const machine = createAnthropicStreamParts();
  const splitter = createSseSplitter((data) => machine.push(data, queue));
  let ended = false;
  let cancelled = false;

  /** Reads until at least one part is queued or the body ended. */
  const fill = async (): Promise<void> => {
    while (queue.length === 0 && !ended) {
      let chunk: Uint8Array | null;
      try {
        chunk = await source.read();
      } catch (error) {
        throw bodyReadError(error, context);
      }
      if (chunk === null) ended = true;
      else splitter.push(chunk);
    }
  };

  await fill();
  const first = queue[0];
  if (first?.type === 'error') {
    source.cancel();
    const error = first.error as { message?: string; type?: string };
    throw new APICallError({
      message: error.message as string,
      url: context.url,
      requestBodyValues: context.requestBodyValues,
      statusCode: error.type === 'overloaded_error' ? 529 : 500,
      responseHeaders: context.responseHeaders,
      responseBody: JSON.stringify(error),
      isRetryable: error.type === 'overloaded_error',
    });
  }

  const flush = (controller: ReadableStreamDefaultController<LanguageModelV2StreamPart>): void => {
    const parts = queue;
    queue = [];
    for (const part of parts) controller.enqueue(part);
  };
  const flowing = source.flow !== undefined;

  return new ReadableStream<LanguageModelV2StreamPart>(
    {
      start(controller) {
        controller.enqueue(streamStart);
        flush(controller);
        if (ended) return controller.close();
        if (!flowing) return;
        source.flow!({
          chunk(bytes) {
            if (cancelled) return;
            try {
              splitter.push(bytes);
            } catch (error) {
              cancelled = true;
              source.cancel(error);
              return controller.error(error);
            }
            flush(controller);
            if ((controller.desiredSize ?? 0) <= 0) source.pause?.();
          },
          end() {
            if (cancelled) return;
            ended = true;
            controller.close();
          },
          error(error) {
            if (!cancelled) controller.error(bodyReadError(error, context));
          },
        });
      },
      async pull(controller) {
        if (flowing) return source.resume?.();
        try {
          await fill();
        } catch (error) {
          if (!cancelled) controller.error(error);
          return;
        }
        if (cancelled) return;
        flush(controller);
        if (ended) controller.close();
      },
      cancel(reason) {
        ended = true;
        cancelled = true;
        source.cancel(reason);
      },
    },
    flowing ? new CountQueuingStrategy({ highWaterMark: PARTS_AHEAD }) : undefined,
  );
}
