import type { RedisClient } from './connect-redis.js';
import type { BlockingPool } from './create-blocking-pool.js';
import { RAW_REPLIES, xreadEntries, type StreamEntry } from './stream-entries.js';
import { hub } from '@chatwire/core';
import { CAPPED_FIELD, DATA_FIELD, END_FIELD, type TurnKeys } from './turn-keys.js';

const { TURN_INTERRUPTED_ENDING, TURN_TOO_LONG_ENDING } = hub;

export interface ReadRedisTurnSettings {
  client: RedisClient;
  pool: BlockingPool;
  keys: TurnKeys;
  /** How long one blocking read waits before the reader checks that the producer is still alive. */
  blockMs: number;
  /** Entries per XREAD. */
  count: number;
  signal: AbortSignal | undefined;
  /** Whether the liveness key existed at attach time (without it, the reader never waits for more). */
  producerAlive: boolean;
  /** A read failed (the reader ends with an "interrupted" error). */
  onReadError: (error: unknown) => void;
  /** True once the hub closed: readers end quietly. */
  isClosed: () => boolean;
  onRelease: () => void;
}

/**
 * A reader of one turn's stream: replays it from the first entry with plain XREADs on the shared client,
 * then follows it with `XREAD BLOCK` on a pooled connection of its own, to the end marker. When a blocking
 * read times out and the liveness key is gone, one more plain read catches an end that just landed;
 * without one the producer died and the reader ends with an "interrupted" error after every stored byte.
 * Pull-based: a reader that does not read sends no commands.
 */
export function readRedisTurn(settings: ReadRedisTurnSettings): ReadableStream<Uint8Array> {
  const { client, pool, keys, signal } = settings;
  const count = String(settings.count);
  const block = String(settings.blockMs);
  let lastId = '0';
  let following = false;
  let suspect = !settings.producerAlive;
  let released = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const release = (): void => {
    if (released) return;
    released = true;
    signal?.removeEventListener('abort', onAbort);
    settings.onRelease();
  };
  const onAbort = (): void => {
    if (released) return;
    release();
    controller.error(signal?.reason);
  };
  const finish = (ending?: Uint8Array): void => {
    release();
    if (ending) controller.enqueue(ending);
    controller.close();
  };

  const readNow = async (): Promise<StreamEntry[]> =>
    xreadEntries(await client.sendCommand(['XREAD', 'COUNT', count, 'STREAMS', keys.stream, lastId], { typeMapping: RAW_REPLIES }));

  const readBlocking = async (): Promise<StreamEntry[]> => {
    const connection = await pool.acquire();
    let reply: unknown;
    try {
      reply = await connection.sendCommand(['XREAD', 'COUNT', count, 'BLOCK', block, 'STREAMS', keys.stream, lastId], {
        typeMapping: RAW_REPLIES,
      });
    } catch (error) {
      pool.discard(connection);
      throw error;
    }
    pool.release(connection);
    return xreadEntries(reply);
  };

  const producerAlive = async (): Promise<boolean> => Number(await client.sendCommand(['EXISTS', keys.live])) > 0;

  /** Enqueues the entries' bytes; true when the reader is finished (end or cap marker). */
  const deliver = (entries: StreamEntry[]): boolean => {
    for (const entry of entries) {
      lastId = entry.id;
      const data = entry.fields.get(DATA_FIELD);
      if (data) controller.enqueue(data);
      if (entry.fields.has(CAPPED_FIELD)) {
        finish(TURN_TOO_LONG_ENDING);
        return true;
      }
      if (entry.fields.has(END_FIELD)) {
        finish();
        return true;
      }
    }
    return false;
  };

  const step = async (): Promise<void> => {
    while (!released) {
      const entries = following && !suspect ? await readBlocking() : await readNow();
      if (released) return;
      if (entries.length > 0) {
        deliver(entries);
        return;
      }
      if (!following) {
        following = true;
      } else if (!suspect) {
        suspect = !(await producerAlive());
      } else if (await producerAlive()) {
        suspect = false;
      } else {
        // Liveness gone and a plain read after it found no end marker: the producer died.
        if (!released) finish(TURN_INTERRUPTED_ENDING);
        return;
      }
    }
  };

  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      signal?.addEventListener('abort', onAbort, { once: true });
    },
    async pull() {
      try {
        await step();
      } catch (error) {
        if (released) return;
        if (!settings.isClosed()) settings.onReadError(error);
        finish(TURN_INTERRUPTED_ENDING);
      }
    },
    cancel() {
      release();
    },
  });
}
