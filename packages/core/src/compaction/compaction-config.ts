import { ChatwireError } from '@chatwire/storage';
import type { CompactionConfig } from './compaction-types.js';

const DEFAULT_OLD_TOOL_RESULT_BYTES = 1_000;

/** Spec 8.2 defaults. Frozen: derive a changed copy with `createCompactionConfig({ ... })`. */
export const DEFAULT_COMPACTION_CONFIG: CompactionConfig = Object.freeze({
  contextBudget: 240_000,
  toolResultCap: 30_000,
  keepRecentToolResults: 5,
  minKept: 10,
  summarizerTimeoutMs: 30_000,
  oldToolResultBytes: DEFAULT_OLD_TOOL_RESULT_BYTES,
});

/** Smallest accepted `toolResultCap`: below this the truncation marker alone would not fit. */
export const MIN_TOOL_RESULT_CAP = 256;

type Setting = keyof CompactionConfig;
const SETTINGS: readonly Setting[] = [
  'contextBudget',
  'toolResultCap',
  'keepRecentToolResults',
  'minKept',
  'summarizerTimeoutMs',
  'oldToolResultBytes',
];

/**
 * The defaults with `overrides` applied, validated. `undefined` values mean "use the default".
 * Throws `ChatwireError('CONFIGURATION')` naming the setting and the bad value.
 */
export function createCompactionConfig(overrides: Partial<CompactionConfig> = {}): CompactionConfig {
  const config: CompactionConfig = { ...DEFAULT_COMPACTION_CONFIG };
  for (const [key, value] of Object.entries(overrides)) {
    if (!SETTINGS.includes(key as Setting)) {
      throw configurationError(`unknown compaction setting '${key}' (known: ${SETTINGS.join(', ')})`, key, value);
    }
    if (value !== undefined) (config as unknown as Record<string, unknown>)[key] = value;
  }
  // Only the budget was lowered (e.g. CHATWIRE_CONTEXT_BUDGET=8000): scale the default cap down with it
  // rather than reject a configuration the operator never wrote.
  if (
    overrides.toolResultCap === undefined &&
    Number.isInteger(config.contextBudget) &&
    config.toolResultCap >= config.contextBudget
  ) {
    config.toolResultCap = Math.max(MIN_TOOL_RESULT_CAP, Math.floor(config.contextBudget / 4));
  }
  if (overrides.oldToolResultBytes === undefined && typeof config.toolResultCap === 'number') {
    config.oldToolResultBytes = Math.min(DEFAULT_OLD_TOOL_RESULT_BYTES, config.toolResultCap);
  }
  validateCompactionConfig(config);
  return config;
}

/** Checks a hand-built config the same way `createCompactionConfig` does; throws on the first problem. */
export function validateCompactionConfig(config: CompactionConfig): void {
  integer(config, 'contextBudget', 1);
  integer(config, 'toolResultCap', MIN_TOOL_RESULT_CAP);
  integer(config, 'keepRecentToolResults', 0);
  integer(config, 'minKept', 1);
  integer(config, 'summarizerTimeoutMs', 1);
  if (config.oldToolResultBytes !== undefined) integer(config, 'oldToolResultBytes', 0);
  if (config.toolResultCap >= config.contextBudget) {
    throw configurationError(
      `invalid compaction setting toolResultCap: ${config.toolResultCap} must be smaller than contextBudget (${config.contextBudget})`,
      'toolResultCap',
      config.toolResultCap,
    );
  }
  if (config.oldToolResultBytes !== undefined && config.oldToolResultBytes > config.toolResultCap) {
    throw configurationError(
      `invalid compaction setting oldToolResultBytes: ${config.oldToolResultBytes} must not exceed toolResultCap (${config.toolResultCap})`,
      'oldToolResultBytes',
      config.oldToolResultBytes,
    );
  }
}

/** `oldToolResultBytes` with its default filled in (never above `toolResultCap`). */
export function oldToolResultBytesOf(config: CompactionConfig): number {
  return config.oldToolResultBytes ?? Math.min(DEFAULT_OLD_TOOL_RESULT_BYTES, config.toolResultCap);
}

function integer(config: CompactionConfig, setting: Setting, min: number): void {
  const value: unknown = config[setting];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    const expected = min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer >= ${min}`;
    throw configurationError(
      `invalid compaction setting ${setting}: expected ${expected}, got ${describe(value)}`,
      setting,
      value,
    );
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return Object.prototype.toString.call(value);
}

function configurationError(message: string, setting: string, value: unknown): ChatwireError {
  return new ChatwireError('CONFIGURATION', message, { details: { setting, value: describe(value) } });
}
