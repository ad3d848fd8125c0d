/**
 * `pnpm bench --quick` (or CHATWIRE_BENCH_QUICK=1): every bench shrinks its repetitions, levels, data and
 * time budgets so the whole run ends in about two minutes. Full mode (no flag) keeps the thorough sizes.
 */
export const QUICK = process.argv.includes('--quick') || process.env.CHATWIRE_BENCH_QUICK === '1';

/** `full` normally, `quick` under `--quick`. */
export const sized = <T>(full: T, quick: T): T => (QUICK ? quick : full);
