import type { AttachedTurn, TurnHub } from '@chatwire/core';
import { ChatwireError } from '@chatwire/storage';
import { connectRedis, type RedisClient } from './connect-redis.js';
import { createBlockingPool } from './create-blocking-pool.js';
import { destroyQuietly } from './destroy-quietly.js';
import { createRedisTurnWriter, type RedisTurnWriter } from './create-redis-turn-writer.js';
import { readRedisTurn } from './read-redis-turn.js';
import { RAW_REPLIES, rangeEntries } from './stream-entries.js';
import { hub as hubs } from '@chatwire/core';
import { checkKeyPrefix, currentTurnKey, END_FIELD, turnKeys } from './turn-keys.js';
import { withTimeout } from './with-timeout.js';

const { DEFAULT_MAX_BYTES_PER_TURN } = hubs;

export interface RedisTurnHubOptions {
  /** A connected client (see `connectRedis`); the hub leaves it open on `close`. */
  client?: RedisClient;
  /** Or a URL: the hub connects (failing with `CONFIGURATION` when Redis is unreachable) and owns the client. */
  url?: string;
  /** First part of every key (default `chatwire`). */
  keyPrefix?: string;
  /** TTL of a running turn's keys, refreshed while it runs (default 20 minutes). */
  runningTtlMs?: number;
  /** TTL of a turn's keys once it ended (default 5 minutes). */
  endedTtlMs?: number;
  /** TTL of the liveness key the producer refreshes every third of it (default 10 s). */
  liveTtlMs?: number;
  /** Bytes kept per turn (default 8 MiB); past it, readers get an `error` chunk. */
  maxBytesPerTurn?: number;
  /** Longest wait for Redis in `attach` and `end` (default 5 s). */
  commandTimeoutMs?: number;
  /** Idle blocking-read connections kept for reuse (default 4). */
  maxIdleReaders?: number;
  /** Failed writes, failed reads and connection errors. The hub never throws them into the producer. */
  onError?: (error: unknown) => void;
}

export interface RedisTurnHubStats {
  /** Turns this process is writing. */
  writers: number;
  /** Readers attached through this hub. */
  readers: number;
  /** Open blocking-read connections. */
  readerConnections: number;
}

export interface RedisTurnHub extends TurnHub {
  stats(): RedisTurnHubStats;
}

const positive = (name: string, value: number): number => {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new ChatwireError('CONFIGURATION', `createRedisTurnHub: ${name} must be a positive integer (milliseconds or bytes)`);
  }
  return value;
};

/**
 * A turn hub on Redis Streams, shared by every process on the same Redis: one stream per running turn
 * (written by the process that runs it, read from any position by any process), a pointer to the chat's
 * current turn, and a liveness key the producer refreshes, so that a reader notices a dead producer.
 */
export async function createRedisTurnHub(options: RedisTurnHubOptions = {}): Promise<RedisTurnHub> {
  const prefix = checkKeyPrefix(options.keyPrefix ?? 'chatwire');
  const runningTtlMs = positive('runningTtlMs', options.runningTtlMs ?? 20 * 60_000);
  const endedTtlMs = positive('endedTtlMs', options.endedTtlMs ?? 5 * 60_000);
  const liveTtlMs = positive('liveTtlMs', options.liveTtlMs ?? 10_000);
  const maxBytesPerTurn = positive('maxBytesPerTurn', options.maxBytesPerTurn ?? DEFAULT_MAX_BYTES_PER_TURN);
  const commandTimeoutMs = positive('commandTimeoutMs', options.commandTimeoutMs ?? 5000);
  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // a failing error reporter must not break the hub
    }
  };
  if (!options.client && !options.url) {
    throw new ChatwireError('CONFIGURATION', 'createRedisTurnHub: pass a connected `client` or a `url`');
  }
  const owned = !options.client;
  const client = options.client ?? (await connectRedis(options.url!, { onError: report }));
  const pool = createBlockingPool(client, options.maxIdleReaders ?? 4, report);
  const writers = new Set<RedisTurnWriter>();
  let readers = 0;
  let closed = false;

  const unreachable = (chatId: string, cause: unknown): ChatwireError =>
    new ChatwireError(
      'INTERNAL',
      `Redis turn hub: cannot read the running turn of chat ${JSON.stringify(chatId)} from Redis (${
        cause instanceof Error ? cause.message : String(cause)
      })`,
      { cause },
    );

  return {
    open(chatId, turnId) {
      const writer = createRedisTurnWriter({
        client,
        keys: turnKeys(prefix, chatId, turnId),
        turnId,
        runningTtlMs,
        endedTtlMs,
        liveTtlMs,
        maxBytesPerTurn,
        commandTimeoutMs,
        onWriteError: (cause) =>
          report(
            new ChatwireError('INTERNAL', `Redis turn hub: writing turn ${turnId} failed; its readers will see it interrupted`, {
              cause,
            }),
          ),
        onDone: () => writers.delete(writer),
      });
      if (closed) writer.abandon();
      else writers.add(writer);
      return writer;
    },

    async attach(chatId, attachOptions = {}): Promise<AttachedTurn | null> {
      const { signal } = attachOptions;
      signal?.throwIfAborted();
      if (closed) return null;
      let turnId: string;
      let keys: ReturnType<typeof turnKeys>;
      let producerAlive: boolean;
      try {
        const current = await withTimeout(client.sendCommand(['GET', currentTurnKey(prefix, chatId)]), commandTimeoutMs, () =>
          new Error(`no reply within ${commandTimeoutMs} ms`),
        );
        if (current === null || current === undefined) return null;
        turnId = String(current);
        keys = turnKeys(prefix, chatId, turnId);
        const [last, live] = await withTimeout(
          Promise.all([
            client.sendCommand(['XREVRANGE', keys.stream, '+', '-', 'COUNT', '1'], { typeMapping: RAW_REPLIES }),
            client.sendCommand(['EXISTS', keys.live]),
          ]),
          commandTimeoutMs,
          () => new Error(`no reply within ${commandTimeoutMs} ms`),
        );
        const lastEntry = rangeEntries(last)[0];
        if (lastEntry?.fields.has(END_FIELD)) return null;
        producerAlive = Number(live) > 0;
        if (!lastEntry && !producerAlive) return null;
      } catch (cause) {
        throw unreachable(chatId, cause);
      }
      signal?.throwIfAborted();
      readers += 1;
      const stream = readRedisTurn({
        client,
        pool,
        keys,
        blockMs: Math.max(10, Math.min(1000, Math.floor(liveTtlMs / 4))),
        count: 100,
        signal,
        producerAlive,
        onReadError: (cause) =>
          report(new ChatwireError('INTERNAL', `Redis turn hub: reading turn ${turnId} failed; the reader got an error chunk`, { cause })),
        isClosed: () => closed,
        onRelease: () => {
          readers -= 1;
        },
      });
      return { turnId, stream };
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const writer of [...writers]) writer.abandon();
      pool.close();
      if (owned) await client.close().catch(() => destroyQuietly(client));
    },

    stats: () => ({ writers: writers.size, readers, readerConnections: pool.size() }),
  };
}
