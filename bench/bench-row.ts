/** One printed line of `pnpm bench`. Every figure names the baseline it was compared with in the same run. */
export interface BenchRow {
  /** Table section, e.g. `storage`, `compaction`, `turn`, `client`. */
  group: string;
  name: string;
  value: number;
  unit: string;
  /** value / baseline value, both measured in this run. */
  ratio?: { value: number; against: string };
  /** The goal, e.g. `>= 1000x faster than scan`, and whether it was met. */
  goal?: string;
  met?: boolean;
  note?: string;
  /**
   * Stable id of a row that a tracked goal reads (`bench/run.ts` prints the issue #18 goals table by id):
   * `mem-per-stream`, `cpu-per-chunk`, `streams-held`, `first-delta`, `list-chats-rps`, `pg-list-messages`,
   * `pg-list-chats`.
   */
  id?: string;
  /** The figure for the goals table, when ratio and value alone do not say it (default: `<ratio>x <against> (<value> <unit>)`). */
  summary?: string;
}

/** Each `bench/*.bench.ts` default-exports one of these. */
export type BenchModule = () => Promise<BenchRow[]>;
