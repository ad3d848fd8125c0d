import type { LanguageModelUsage } from 'ai';
import { ChatwireError, type Caller, type RecordStore } from '@chatwire/storage';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { TurnLimits } from '../turn/turn-limits.js';
import { checkLimit, effectiveLimits, type LimitsFor, type LimitValues } from './limit-values.js';
import { tokens } from './add-to-usage-ledger.js';
import { readUsageLedger } from './read-usage-ledger.js';
import { DAY_MS, secondsToUtcMidnight, utcDate, utcMidnight } from './utc-day.js';

/** A connected node-redis v4/v5 client (`connectRedis` of `@chatwire/redis` makes one). */
export type LimitsRedisClient = object;

export interface TurnLimitsOptions extends LimitValues {
  /** Per-user limits (plans, roles); its fields replace the defaults above, `null` lifts a limit. */
  limitsFor?: LimitsFor;
  /**
   * Counters in Redis, shared by every process using it (a client or a promise of one, e.g. still
   * connecting). Without it, turns per minute are counted in this process.
   */
  redis?: LimitsRedisClient | PromiseLike<LimitsRedisClient>;
  /**
   * Without `redis`: counters in PostgreSQL through this `pg` Pool, shared by every process using that
   * database (a table `tableName`, default `chatwire_rate_limits`, created on first use).
   */
  postgres?: { pool: object; schemaName?: string; tableName?: string };
  /**
   * Without `redis` or `postgres`: the tokens of today are read from this store's usage ledger (`ai-usage`, one row
   * per model and day, written with each stored turn), so the quota holds across processes sharing the store.
   * Without either, tokens are counted in this process.
   */
  store?: RecordStore;
  /** Prefix of the Redis keys (default `chatwire:limits:`). */
  keyPrefix?: string;
  /**
   * When the counters cannot be read (Redis down or slower than `timeoutMs`, a failing `limitsFor`):
   * `true` (default) lets the turn run, `false` refuses it with 503 `UNAVAILABLE`. Either way the error
   * goes to `onError`.
   */
  failOpen?: boolean;
  /** A limit check that takes longer than this counts as failed (default 1000 ms). */
  timeoutMs?: number;
  onError?: (error: unknown) => void;
}

const MINUTE_S = 60;
const DAY_S = 86_400;

/**
 * Per-user turns per minute and tokens per UTC day, as the chat service's `limits` option. Counters are
 * `rate-limiter-flexible` limiters: atomic in memory, in Redis (one Lua script per check) and in PostgreSQL
 * (one upsert per check). A turn over
 * a limit is refused before any model call with 429 `RATE_LIMITED` (retry once the minute frees a turn)
 * or `QUOTA_EXCEEDED` (retry at the next UTC midnight).
 */
export function createTurnLimits(options: TurnLimitsOptions): TurnLimits {
  const defaults = {
    turnsPerMinute: checkLimit('turnsPerMinute', options.turnsPerMinute),
    tokensPerDay: checkLimit('tokensPerDay', options.tokensPerDay),
  };
  const prefix = options.keyPrefix ?? 'chatwire:limits:';
  const failOpen = options.failOpen ?? true;
  const timeoutMs = options.timeoutMs ?? 1_000;
  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // A throwing onError must not decide a turn.
    }
  };
  // Tokens are counted when some user may have a token limit.
  const countTokens = defaults.tokensPerDay !== null || options.limitsFor !== undefined;
  const tokensFromRows = !options.redis && !options.postgres && options.store !== undefined;
  let pgTable: Promise<unknown> | null = null;

  /** A RateLimiterPostgres; the first one creates the table, the others wait for it. */
  function postgresLimiter(postgres: NonNullable<TurnLimitsOptions['postgres']>, points: number, duration: number, keyPrefix: string) {
    const make = (tableCreated: boolean) =>
      new Promise<RateLimiterAbstract>((resolve, reject) => {
        const created: RateLimiterAbstract = new RateLimiterPostgres(
          {
            storeClient: postgres.pool,
            storeType: 'pool',
            tableName: postgres.tableName ?? 'chatwire_rate_limits',
            ...(postgres.schemaName ? { schemaName: postgres.schemaName } : {}),
            tableCreated,
            clearExpiredByTimeout: true,
            points,
            duration,
            keyPrefix,
          },
          // Called from inside the constructor when the table exists already: settle after it returned.
          (error?: unknown) => queueMicrotask(() => (error ? reject(error) : resolve(created))),
        );
      });
    if (!pgTable) {
      const first = make(false);
      pgTable = first;
      first.catch(() => (pgTable = null));
      return first;
    }
    return pgTable.then(() => make(true));
  }

  const limiters = new Map<string, Promise<RateLimiterAbstract>>();
  function limiter(kind: 'tpm' | 'tpd', points: number, duration: number): Promise<RateLimiterAbstract> {
    const name = `${kind}:${points}`;
    let found = limiters.get(name);
    if (!found) {
      const keyPrefix = `${prefix}${name}`;
      found = options.redis
        ? Promise.resolve(options.redis).then(
            (storeClient) => new RateLimiterRedis({ storeClient, useRedisPackage: true, points, duration, keyPrefix }),
          )
        : options.postgres
          ? postgresLimiter(options.postgres, points, duration, keyPrefix)
          : Promise.resolve(new RateLimiterMemory({ points, duration, keyPrefix }));
      // A client that never connected: try again on the next check.
      found.catch(() => limiters.delete(name));
      limiters.set(name, found);
    }
    return found;
  }
  const tokenCounter = () => limiter('tpd', Number.MAX_SAFE_INTEGER, DAY_S);
  const dayKey = (caller: Caller, now: number) => `${caller.userId}:${utcDate(now)}`;

  async function tokensToday(caller: Caller, now: number): Promise<number> {
    if (tokensFromRows) {
      const today = utcMidnight(now);
      const rows = await readUsageLedger(options.store!, caller.userId, today, today + DAY_MS);
      return rows.reduce((sum, row) => sum + row.totalTokens, 0);
    }
    const res = await (await tokenCounter()).get(dayKey(caller, now));
    return res?.consumedPoints ?? 0;
  }

  /**
   * Both limits at once (one round trip to Redis instead of two, in sequence): the quota wins when both
   * refuse. A turn refused by the quota still takes its point of the per-minute limit; the quota refuses
   * until midnight anyway.
   */
  async function check(caller: Caller): Promise<void> {
    const limits = await effectiveLimits(defaults, options.limitsFor, caller);
    const now = Date.now();
    const [used, turns] = await Promise.allSettled([
      limits.tokensPerDay === null ? Promise.resolve(0) : tokensToday(caller, now),
      limits.turnsPerMinute === null ? Promise.resolve(null) : limiter('tpm', limits.turnsPerMinute, MINUTE_S).then((l) => l.consume(caller.userId)),
    ]);
    if (used.status === 'rejected') throw used.reason;
    if (limits.tokensPerDay !== null && used.value >= limits.tokensPerDay) {
      throw new ChatwireError('QUOTA_EXCEEDED', `Daily token quota of ${limits.tokensPerDay} reached; it renews at midnight UTC`, {
        details: { retryAfter: secondsToUtcMidnight(now) },
      });
    }
    if (turns.status === 'rejected') {
      const rejection: unknown = turns.reason;
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new ChatwireError('RATE_LIMITED', `Limit of ${limits.turnsPerMinute} turns per minute reached`, {
        details: { retryAfter: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) },
      });
    }
  }

  return {
    async admit(caller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`limit check took longer than ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([check(caller), timeout]);
      } catch (error) {
        if (ChatwireError.is(error, 'RATE_LIMITED') || ChatwireError.is(error, 'QUOTA_EXCEEDED')) throw error;
        report(error);
        if (!failOpen) {
          throw new ChatwireError('UNAVAILABLE', 'Limits cannot be checked right now; retry shortly', {
            cause: error,
            details: { retryAfter: 5 },
          });
        }
      } finally {
        clearTimeout(timer);
      }
    },

    used(caller, usage: LanguageModelUsage) {
      const total = Math.round(tokens(usage.totalTokens));
      if (!countTokens || tokensFromRows || total === 0) return;
      const now = Date.now();
      tokenCounter()
        .then((counter) => counter.penalty(dayKey(caller, now), total, { customDuration: secondsToUtcMidnight(now) }))
        .catch(report);
    },
  };
}
