import { isChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { createCompactionConfig, DEFAULT_COMPACTION_CONFIG, validateCompactionConfig } from './compaction-config.js';
import type { CompactionConfig } from './compaction-types.js';

function configError(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isChatwireError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a ChatwireError');
}

describe('compaction config', () => {
  it('has the spec 8.2 defaults', () => {
    expect(DEFAULT_COMPACTION_CONFIG).toEqual({
      contextBudget: 240000,
      toolResultCap: 30000,
      keepRecentToolResults: 5,
      minKept: 10,
      summarizerTimeoutMs: 30000,
      oldToolResultBytes: 1000,
    });
    expect(createCompactionConfig()).toEqual(DEFAULT_COMPACTION_CONFIG);
    expect(Object.isFrozen(DEFAULT_COMPACTION_CONFIG)).toBe(true);
  });

  it('applies overrides and ignores undefined values', () => {
    const config = createCompactionConfig({ contextBudget: 120000, minKept: undefined });
    expect(config.contextBudget).toBe(120000);
    expect(config.minKept).toBe(10);
  });

  it('keeps the default oldToolResultBytes within a smaller toolResultCap', () => {
    expect(createCompactionConfig({ toolResultCap: 500 }).oldToolResultBytes).toBe(500);
  });

  it.each([
    [{ contextBudget: 0 }, 'contextBudget', '0'],
    [{ contextBudget: -5 }, 'contextBudget', '-5'],
    [{ contextBudget: 1.5 }, 'contextBudget', '1.5'],
    [{ contextBudget: Number.NaN }, 'contextBudget', 'NaN'],
    [{ contextBudget: '120000' as unknown as number }, 'contextBudget', '"120000"'],
    [{ toolResultCap: 100 }, 'toolResultCap', '100'],
    [{ keepRecentToolResults: -1 }, 'keepRecentToolResults', '-1'],
    [{ minKept: 0 }, 'minKept', '0'],
    [{ summarizerTimeoutMs: 0 }, 'summarizerTimeoutMs', '0'],
    [{ oldToolResultBytes: -3 }, 'oldToolResultBytes', '-3'],
  ])('rejects %j naming the setting and the value', (overrides, setting, shown) => {
    const error = configError(() => createCompactionConfig(overrides));
    expect(error.code).toBe('CONFIGURATION');
    expect(error.message).toContain(setting);
    expect(error.message).toContain(shown);
  });

  it('rejects a toolResultCap that is not smaller than contextBudget', () => {
    const error = configError(() => createCompactionConfig({ contextBudget: 1000, toolResultCap: 1000 }));
    expect(error.message).toMatch(/toolResultCap: 1000 must be smaller than contextBudget \(1000\)/);
  });

  it('rejects oldToolResultBytes above toolResultCap', () => {
    const error = configError(() => createCompactionConfig({ toolResultCap: 300, oldToolResultBytes: 301 }));
    expect(error.message).toMatch(/oldToolResultBytes: 301 must not exceed toolResultCap/);
  });

  it('rejects an unknown setting (a typo would otherwise be silently ignored)', () => {
    const error = configError(() => createCompactionConfig({ contextBudgt: 5 } as Partial<CompactionConfig>));
    expect(error.code).toBe('CONFIGURATION');
    expect(error.message).toContain("'contextBudgt'");
  });

  it('validates hand-built configs the same way', () => {
    const bad = { ...DEFAULT_COMPACTION_CONFIG, minKept: 0 };
    expect(configError(() => validateCompactionConfig(bad)).message).toContain('minKept');
    expect(() => validateCompactionConfig({ ...DEFAULT_COMPACTION_CONFIG, oldToolResultBytes: undefined })).not.toThrow();
  });

  it('scales the default toolResultCap down when only a small contextBudget is given', () => {
    expect(createCompactionConfig({ contextBudget: 8_000 }).toolResultCap).toBe(2_000);
    expect(createCompactionConfig({ contextBudget: 120_000 }).toolResultCap).toBe(30_000);
    expect(() => createCompactionConfig({ contextBudget: 8_000, toolResultCap: 9_000 })).toThrow(/toolResultCap/);
  });
});

