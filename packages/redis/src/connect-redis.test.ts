import { describe, expect, it } from 'vitest';
import { connectRedis, redactRedisUrl } from './connect-redis.js';
import { redisUrl, skipReason } from './test-redis.js';

describe('redactRedisUrl', () => {
  it.each([
    ['redis://user:secret@127.0.0.1:6379/0', 'redis://127.0.0.1:6379/0'],
    ['rediss://:secret@redis.example:6380', 'rediss://redis.example:6380'],
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['not a url', 'not a url'],
    ['redis://user:secret@', 'redis://'],
  ])('%s -> %s', (url, expected) => {
    expect(redactRedisUrl(url)).toBe(expected);
    if (url.includes('://')) expect(redactRedisUrl(url)).not.toContain('secret');
  });
});

describe('connectRedis', () => {
  it('fails with CONFIGURATION naming the host and port, never the credentials, when nothing listens', async () => {
    const failure = await connectRedis('redis://user:secret@127.0.0.1:1').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'CONFIGURATION', message: expect.stringContaining('Redis is unreachable at redis://127.0.0.1:1') });
    expect(String((failure as Error).message)).not.toContain('secret');
  });

  it('rejects a missing or malformed URL with CONFIGURATION', async () => {
    await expect(connectRedis('')).rejects.toMatchObject({ code: 'CONFIGURATION', message: expect.stringContaining('CHATWIRE_REDIS_URL') });
    await expect(connectRedis('http://user:secret@127.0.0.1:1')).rejects.toMatchObject({ code: 'CONFIGURATION' });
    await expect(connectRedis('http://user:secret@127.0.0.1:1')).rejects.not.toThrow(/secret/);
  });

  it.skipIf(skipReason !== '')(`connects with RESP3 ${skipReason}`, async () => {
    const client = await connectRedis(redisUrl!);
    const hello = (await client.sendCommand(['HELLO'])) as Record<string, unknown>;
    expect(hello.proto).toBe(3);
    await client.close();
  });
});
