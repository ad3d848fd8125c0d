import { describe, expect, it } from 'vitest';
import { fromEnv } from '../from-env.js';
import { limitsFromEnv } from './limits-from-env.js';

describe('limitsFromEnv', () => {
  it('neither variable set: no limits', () => {
    expect(limitsFromEnv({})).toEqual({});
    expect(limitsFromEnv({ CHATWIRE_TURNS_PER_MINUTE: ' ', CHATWIRE_TOKENS_PER_DAY: '' })).toEqual({});
  });

  it('reads each variable into its handler option', () => {
    expect(limitsFromEnv({ CHATWIRE_TURNS_PER_MINUTE: '1', CHATWIRE_TOKENS_PER_DAY: ' 5000 ' })).toEqual({ turnsPerMinute: 1, tokensPerDay: 5000 });
  });

  it.each(['0', '-3', '1.5', 'ten', '1e3', '99999999999999999999'])('a malformed value %j is a CONFIGURATION error naming the variable', (value) => {
    for (const name of ['CHATWIRE_TURNS_PER_MINUTE', 'CHATWIRE_TOKENS_PER_DAY']) {
      expect(() => limitsFromEnv({ [name]: value })).toThrow(expect.objectContaining({ code: 'CONFIGURATION', message: expect.stringContaining(name) }));
    }
  });

  it('fromEnv hands the limits to the handler options', () => {
    const env = { CHATWIRE_JWT_SECRET: 'x'.repeat(32) };
    expect(fromEnv(env).turnsPerMinute).toBeUndefined();
    expect(fromEnv({ ...env, CHATWIRE_TOKENS_PER_DAY: '1000' }).tokensPerDay).toBe(1000);
    expect(() => fromEnv({ ...env, CHATWIRE_TURNS_PER_MINUTE: 'x' })).toThrow(/CHATWIRE_TURNS_PER_MINUTE/);
  });
});
