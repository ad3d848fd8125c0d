// `@chatwire/core/limits`: per-user turn limits and the usage ledger (kept off the main entry, which is
// capped; `@chatwire/server` re-exports what apps use).
export { createTurnLimits } from './create-turn-limits.js';
export type { TurnLimitsOptions, LimitsRedisClient } from './create-turn-limits.js';
export type { LimitValues, LimitsFor } from './limit-values.js';
export type { TurnLimits } from '../turn/turn-limits.js';
export { parseUsageQuery, MAX_USAGE_DAYS } from './parse-usage-query.js';
export type { UsageQuery, UsageRange } from './parse-usage-query.js';
export type { UsageRow } from './read-usage.js';
export { backfillUsageLedger } from './backfill-usage-ledger.js';
export type { BackfillUsageOptions } from './backfill-usage-ledger.js';
export type { UsageLedgerRow } from './add-to-usage-ledger.js';
