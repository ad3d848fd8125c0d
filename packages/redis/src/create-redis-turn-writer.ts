import type { TurnLogWriter } from '@chatwire/core';
import type { RedisClient } from './connect-redis.js';
import { CAPPED_FIELD, DATA_FIELD, END_FIELD, type TurnKeys } from './turn-keys.js';
import { withTimeout } from './with-timeout.js';

export interface RedisTurnWriterSettings {
  client: RedisClient;
  keys: TurnKeys;
  turnId: string;
  runningTtlMs: number;
  endedTtlMs: number;
  liveTtlMs: number;
  maxBytesPerTurn: number;
  /** How long `end` waits for Redis before it resolves anyway. */
  commandTimeoutMs: number;
  /** A write to Redis failed: the turn's log is incomplete from there on. */
  onWriteError: (error: unknown) => void;
  /** Called once when the writer is done (ended or broken) so the hub forgets it. */
  onDone: () => void;
}

export interface RedisTurnWriter extends TurnLogWriter {
  /** Stops writing without an end marker (the hub is closing): readers see the turn interrupted. */
  abandon(): void;
}

/**
 * The producer side of one turn's log. Appends are copied into a pending list and sent by one MULTI per
 * turn of the event loop (one XADD of the batch's bytes, one PEXPIRE); at most one MULTI is in flight, so
 * the stream gets the bytes in order and a failed write is never followed by a later one (no holes). A
 * failure marks the writer broken: nothing more is sent, the liveness key is no longer refreshed, and
 * readers end with an "interrupted" error. The producer never waits and never sees an error.
 */
export function createRedisTurnWriter(settings: RedisTurnWriterSettings): RedisTurnWriter {
  const { client, keys } = settings;
  const running = String(settings.runningTtlMs);
  const liveTtl = String(settings.liveTtlMs);
  let pending: Buffer[] = [];
  let bytes = 0;
  let capped = false;
  let capMarked = false;
  let ending = false;
  let broken = false;
  let flushQueued = false;
  let refreshQueued = false;
  let chain: Promise<void> = Promise.resolve();
  let endPromise: Promise<void> | undefined;

  let isDone = false;
  const done = (): void => {
    if (isDone) return;
    isDone = true;
    settings.onDone();
  };

  const run = (step: () => Promise<void>): Promise<void> => (chain = chain.then(step));

  const fail = (error: unknown): void => {
    if (broken) return;
    broken = true;
    pending = [];
    clearInterval(refresher);
    client.sendCommand(['DEL', keys.live]).catch(() => {});
    settings.onWriteError(error);
    done();
  };

  const exec = async (commands: Array<Array<string | Buffer>>): Promise<void> => {
    if (broken) return;
    const multi = client.multi();
    for (const args of commands) multi.addCommand(args);
    try {
      await multi.exec();
    } catch (error) {
      fail(error);
    }
  };

  /** The XADDs of what is pending (data, then the cap marker once), taking it off the pending list. */
  const takePending = (): Array<Array<string | Buffer>> => {
    const commands: Array<Array<string | Buffer>> = [];
    if (pending.length > 0) {
      const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      pending = [];
      commands.push(['XADD', keys.stream, '*', DATA_FIELD, data]);
    }
    if (capped && !capMarked) {
      capMarked = true;
      commands.push(['XADD', keys.stream, '*', CAPPED_FIELD, '1']);
    }
    return commands;
  };

  const sendPending = (): Promise<void> => {
    flushQueued = false;
    if (broken) return Promise.resolve();
    const commands = takePending();
    if (commands.length === 0) return Promise.resolve();
    commands.push(['PEXPIRE', keys.stream, running]);
    return exec(commands);
  };

  const schedule = (): void => {
    if (flushQueued) return;
    flushQueued = true;
    setImmediate(() => void run(sendPending));
  };

  // Keeps the liveness key (and the TTLs of a long turn's keys) fresh while this process runs the turn.
  const refresh = (): Promise<void> => {
    refreshQueued = false;
    return exec([
      ['SET', keys.live, '1', 'PX', liveTtl],
      ['PEXPIRE', keys.stream, running],
      ['PEXPIRE', keys.current, running],
    ]);
  };
  const refresher = setInterval(
    () => {
      if (refreshQueued || broken || ending) return;
      refreshQueued = true;
      void run(refresh);
    },
    Math.max(1, Math.floor(settings.liveTtlMs / 3)),
  );
  refresher.unref();

  // A turn continued after tool approvals runs again under its id: its earlier, ended log goes first.
  void run(() =>
    exec([
      ['DEL', keys.stream],
      ['SET', keys.current, settings.turnId, 'PX', running],
      ['SET', keys.live, '1', 'PX', liveTtl],
    ]),
  );

  return {
    append(chunk) {
      if (ending || broken || capped || chunk.byteLength === 0) return;
      if (bytes + chunk.byteLength > settings.maxBytesPerTurn) {
        capped = true;
      } else {
        pending.push(Buffer.from(chunk));
        bytes += chunk.byteLength;
      }
      schedule();
    },
    end() {
      if (endPromise) return endPromise;
      ending = true;
      clearInterval(refresher);
      const ended = String(settings.endedTtlMs);
      const finish = run(async () => {
        await exec([
          ...takePending(),
          ['XADD', keys.stream, '*', END_FIELD, '1'],
          ['PEXPIRE', keys.stream, ended],
          ['PEXPIRE', keys.current, ended],
          ['DEL', keys.live],
        ]);
        done();
      });
      endPromise = withTimeout(finish, settings.commandTimeoutMs, () => new Error('timeout')).catch(() => {
        fail(new Error(`Redis turn hub: ending turn ${settings.turnId} took longer than ${settings.commandTimeoutMs} ms`));
      });
      return endPromise;
    },
    abandon() {
      if (broken) return;
      broken = true;
      pending = [];
      clearInterval(refresher);
      done();
    },
  };
}
