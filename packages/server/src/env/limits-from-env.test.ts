import { describe, expect, it } from 'vitest';
import { fromEnv } from '../from-env.js';
import { limitsFromEnv } from './limits-from-env.js';

describe('limitsFromEnv', () => {
  it('neither variable set: no limits', () => {
    expect(limitsFromEnv({})).toEqual({});
    expect(limitsFromEnv({ CHATWIRE_TURNS_PER_MINUTE: ' ', CHATWIRE_TOKENS_PER_DAY: '' })).toEqual({});
  });

  it('either variable set: limits that refuse the turn over it', async () => {
    const { limits } = limitsFromEnv({ CHATWIRE_TURNS_PER_MINUTE: '1' });
    await limits!.admit({ userId: 'alice' });
    await expect(limits!.admit({ userId: 'alice' })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    const quota = limitsFromEnv({ CHATWIRE_TOKENS_PER_DAY: '10' }).limits!;
    quota.used!({ userId: 'bob' }, { inputTokens: 8, outputTokens: 4, totalTokens: 12 });
    await expect.poll(() => quota.admit({ userId: 'bob' }).then(() => 'admitted', (e: { code: string }) => e.code)).toBe('QUOTA_EXCEEDED');
    await quota.admit({ userId: 'carol' });
  });

  it.each(['0', '-3', '1.5', 'ten', '1e3', '99999999999999999999'])('a malformed value %j is a CONFIGURATION error naming the variable', (value) => {
    for (const name of ['CHATWIRE_TURNS_PER_MINUTE', 'CHATWIRE_TOKENS_PER_DAY']) {
      expect(() => limitsFromEnv({ [name]: value })).toThrow(expect.objectContaining({ code: 'CONFIGURATION', message: expect.stringContaining(name) }));
    }
  });

  it('fromEnv hands the limits to the handler options', () => {
    const env = { CHATWIRE_JWT_SECRET: 'x'.repeat(32) };
    expect(fromEnv(env).limits).toBeUndefined();
    expect(typeof fromEnv({ ...env, CHATWIRE_TOKENS_PER_DAY: '1000' }).limits?.admit).toBe('function');
    expect(() => fromEnv({ ...env, CHATWIRE_TURNS_PER_MINUTE: 'x' })).toThrow(/CHATWIRE_TURNS_PER_MINUTE/);
  });
});
