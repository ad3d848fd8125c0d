import type { AttachedTurn, TurnHub, TurnLogWriter } from './turn-hub.js';
import { DEFAULT_MAX_BYTES_PER_TURN, TURN_INTERRUPTED_ENDING, TURN_TOO_LONG_ENDING } from './turn-log-endings.js';

export interface MemoryTurnHubOptions {
  /**
   * Bytes kept per turn (default 8 MiB). An append that would pass it is dropped, and so is every later
   * one; a reader that reaches that point gets an `error` chunk and `data: [DONE]`.
   */
  maxBytesPerTurn?: number;
}

export interface MemoryTurnHubStats {
  /** Running turns whose log the hub holds. */
  turns: number;
  /** Bytes appended to those logs. */
  bytes: number;
  /** Bytes allocated for those logs: `bytes` rounded up to whole blocks. */
  allocatedBytes: number;
  /** Readers currently attached (to running or already ended turns). */
  readers: number;
}

/** The in-process turn hub, with counters for tests and metrics. */
export interface MemoryTurnHub extends TurnHub {
  stats(): MemoryTurnHubStats;
}

/**
 * Size of the blocks a log is kept in. Appends are copied into fixed blocks rather than kept one array
 * per chunk: a turn of a thousand small chunks then costs a few objects, not a thousand, and at most one
 * partly filled block beyond its bytes.
 */
const BLOCK_BYTES = 4096;

interface TurnLog {
  readonly turnId: string;
  /** The appended bytes, in blocks of BLOCK_BYTES, shared by every reader (never copied per reader). */
  readonly blocks: Uint8Array[];
  /** Bytes appended so far: the blocks hold them in order, the last block possibly partly. */
  bytes: number;
  capped: boolean;
  ended: boolean;
  /** Set when the hub closed before the turn ended. */
  interrupted: boolean;
  /** Readers waiting for the next chunk or the end; woken (and cleared) on every change. */
  readonly waiters: Set<() => void>;
}

/**
 * A turn hub in this process's memory: each running turn's log is the bytes it appended, in blocks.
 * Readers pull from it at their own pace (replay from the first byte, then wait for more), so a slow or
 * cancelled reader never affects the producer or another reader. When the turn ends the hub drops the
 * log; readers still attached finish from the reference they hold.
 *
 * Appended bytes are copied once (the caller may reuse or transfer its array). Readers get views of the
 * shared blocks, split wherever a block ends (SSE readers accept any split): they must not modify or
 * transfer them.
 */
export function createMemoryTurnHub(options: MemoryTurnHubOptions = {}): MemoryTurnHub {
  const maxBytes = options.maxBytesPerTurn ?? DEFAULT_MAX_BYTES_PER_TURN;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new TypeError('createMemoryTurnHub: maxBytesPerTurn must be a positive integer');
  }
  const logs = new Map<string, TurnLog>();
  let readers = 0;
  let closed = false;

  const wake = (log: TurnLog): void => {
    if (log.waiters.size === 0) return;
    const waiters = [...log.waiters];
    log.waiters.clear();
    for (const resolve of waiters) resolve();
  };

  const write = (log: TurnLog, bytes: Uint8Array): void => {
    let offset = 0;
    while (offset < bytes.byteLength) {
      const used = log.bytes % BLOCK_BYTES;
      let block = used === 0 ? undefined : log.blocks[log.blocks.length - 1];
      if (!block) {
        block = new Uint8Array(BLOCK_BYTES);
        log.blocks.push(block);
      }
      const count = Math.min(BLOCK_BYTES - used, bytes.byteLength - offset);
      block.set(bytes.subarray(offset, offset + count), used);
      offset += count;
      log.bytes += count;
    }
  };

  const open = (chatId: string, turnId: string): TurnLogWriter => {
    const log: TurnLog = {
      turnId,
      blocks: [],
      bytes: 0,
      capped: false,
      ended: false,
      interrupted: false,
      waiters: new Set(),
    };
    if (!closed) logs.set(chatId, log);
    else log.ended = true;
    return {
      append(bytes) {
        if (log.ended || log.capped || bytes.byteLength === 0) return;
        if (log.bytes + bytes.byteLength > maxBytes) {
          log.capped = true;
        } else {
          write(log, bytes);
        }
        wake(log);
      },
      end() {
        if (!log.ended) {
          log.ended = true;
          if (logs.get(chatId) === log) logs.delete(chatId);
          wake(log);
        }
        return Promise.resolve();
      },
    };
  };

  const read = (log: TurnLog, signal: AbortSignal | undefined): ReadableStream<Uint8Array> => {
    let position = 0;
    let released = false;
    let waiting: (() => void) | undefined;
    readers += 1;
    const release = (): void => {
      if (released) return;
      released = true;
      readers -= 1;
      signal?.removeEventListener('abort', onAbort);
      if (waiting) {
        log.waiters.delete(waiting);
        waiting();
      }
    };
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const onAbort = (): void => {
      if (released) return;
      release();
      controller.error(signal?.reason);
    };
    return new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        signal?.addEventListener('abort', onAbort, { once: true });
      },
      async pull(c) {
        while (!released) {
          if (position < log.bytes) {
            const index = Math.floor(position / BLOCK_BYTES);
            const start = position - index * BLOCK_BYTES;
            const end = Math.min(BLOCK_BYTES, log.bytes - index * BLOCK_BYTES);
            c.enqueue(log.blocks[index]!.subarray(start, end));
            position += end - start;
            return;
          }
          const ending = log.capped ? TURN_TOO_LONG_ENDING : log.interrupted ? TURN_INTERRUPTED_ENDING : undefined;
          if (ending || log.ended) {
            release();
            if (ending) c.enqueue(ending);
            c.close();
            return;
          }
          await new Promise<void>((resolve) => {
            waiting = resolve;
            log.waiters.add(resolve);
          });
          waiting = undefined;
        }
      },
      cancel() {
        release();
      },
    });
  };

  return {
    open,
    async attach(chatId, attachOptions = {}): Promise<AttachedTurn | null> {
      attachOptions.signal?.throwIfAborted();
      const log = logs.get(chatId);
      if (!log || log.ended) return null;
      return { turnId: log.turnId, stream: read(log, attachOptions.signal) };
    },
    async close() {
      closed = true;
      for (const log of logs.values()) {
        log.interrupted = true;
        log.ended = true;
        wake(log);
      }
      logs.clear();
    },
    stats() {
      let bytes = 0;
      let blocks = 0;
      for (const log of logs.values()) {
        bytes += log.bytes;
        blocks += log.blocks.length;
      }
      return { turns: logs.size, bytes, allocatedBytes: blocks * BLOCK_BYTES, readers };
    },
  };
}
