/** Messages between `bench/soak.bench.ts` and its driver child (`soak-driver.ts`). */
export interface SoakDriverConfig {
  /** `http://127.0.0.1:<port>/api/ai` of each server process. */
  bases: string[];
  durationMs: number;
  users: number;
  /** At most this many operations in all (a bound besides the time). */
  maxOps: number;
  secret: string;
  seed: number;
}

/** One run of `409 CHAT_BUSY` answers to one chat, from the first to the first answer that was not 409. */
export interface BusyStreak {
  start: number;
  end: number;
  /** Still busy when the driver gave up (or the run ended). */
  unresolved: boolean;
  /** The worker's previous operation (what left the chat busy, most likely). */
  after: string;
}

export interface SoakDriverResult {
  ops: Record<string, number>;
  /** Turns that ended with `finish` (stops included), and those that ended otherwise or were refused. */
  turnsCompleted: number;
  turnsFailed: number;
  turnsAborted: number;
  /** Why turns failed: `error chunk`, `503`, `409`... */
  failures: Record<string, number>;
  /** HTTP status of every answer, counted. */
  statuses: Record<string, number>;
  busyStreaks: BusyStreak[];
  /** Fetch failures (connection refused or reset): a server process went away. */
  networkErrors: number;
  /** A few examples of unexpected answers. */
  samples: string[];
}
