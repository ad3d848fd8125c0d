import { describe, expect, it } from 'vitest';
import { httpLimitsFromEnv } from './http-limits-from-env.js';

describe('httpLimitsFromEnv', () => {
  it('reads each variable into its option', () => {
    expect(
      httpLimitsFromEnv({
        CHATWIRE_BODY_TIMEOUT_MS: '5000',
        CHATWIRE_HEARTBEAT_MS: ' 1000 ',
        CHATWIRE_CLIENT_IDLE_TIMEOUT_MS: '0',
      }),
    ).toEqual({ bodyTimeoutMs: 5000, heartbeatMs: 1000, clientIdleTimeoutMs: 0 });
  });

  it('leaves unset and empty variables to the defaults', () => {
    expect(httpLimitsFromEnv({ CHATWIRE_HEARTBEAT_MS: '' })).toEqual({});
  });

  it.each(['-1', '1.5', '10s', 'abc', '1e3', '99999999999999999999'])('rejects %j with a CONFIGURATION error naming the variable', (raw) => {
    let error: unknown;
    try {
      httpLimitsFromEnv({ CHATWIRE_BODY_TIMEOUT_MS: raw });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'CONFIGURATION' });
    expect((error as Error).message).toMatch(/^CHATWIRE_BODY_TIMEOUT_MS must be a whole number of milliseconds\b/);
    expect((error as Error).message).toContain(`got '${raw}'`);
  });
});
