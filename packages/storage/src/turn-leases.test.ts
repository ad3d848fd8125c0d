import { expect, it } from 'vitest';
import { DEFAULT_TURN_LEASE_TTL_MS } from './index.js';
import { createMemoryDriver } from './memory/index.js';

it('the default lease ttl frees a crashed holder’s chat within 20 s', async () => {
  expect(DEFAULT_TURN_LEASE_TTL_MS).toBe(15_000);
  let now = 0;
  const driver = createMemoryDriver({ now: () => now });
  const crashed = await driver.leases.acquire('chat', { ttlMs: DEFAULT_TURN_LEASE_TTL_MS });
  expect(crashed).not.toBeNull();
  now = 19_999;
  expect(await driver.leases.acquire('chat', { ttlMs: DEFAULT_TURN_LEASE_TTL_MS })).not.toBeNull();
});
