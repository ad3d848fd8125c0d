import { createPostgresDriver } from '@chatwire/postgres';
import type { StoreDriver, TurnLeases } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

/**
 * `POST /chats/:id/stop` on a chat with no turn in this process asks the store whether a turn runs
 * elsewhere. The question only reads the chat's lease: a turn sent at that moment is admitted, not
 * refused with CHAT_BUSY. Every lease release here waits for a gate, so a probe that took the lease would
 * still hold it when the turn arrives.
 */

const url = process.env.CHATWIRE_TEST_DATABASE_URL;
const schema = `cw_stop_probe_${process.pid}_${Date.now().toString(36)}`;
const pool = url ? new pg.Pool({ connectionString: url, max: 4 }) : null;
afterAll(async () => {
  await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool?.end();
});

function gatedReleases(driver: StoreDriver) {
  const inner = driver.leases;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let taken!: () => void;
  const firstTaken = new Promise<void>((resolve) => (taken = resolve));
  const leases: TurnLeases = {
    async acquire(key, options) {
      const lease = await inner.acquire(key, options);
      if (!lease) return null;
      taken();
      return { key: lease.key, holder: lease.holder, renew: () => lease.renew(), release: async () => (await gate, lease.release()) };
    },
    holds: (key, holder) => inner.holds(key, holder),
    isHeld: (key) => inner.isHeld(key),
  };
  const gated = Object.assign(Object.create(Object.getPrototypeOf(driver) as object) as object, driver, { leases }) as StoreDriver;
  return { driver: gated, open, firstTaken };
}

const drivers: Array<[string, (() => StoreDriver) | null]> = [
  ['memory', () => createMemoryDriver()],
  [`PostgreSQL${url ? '' : ' (skipped: CHATWIRE_TEST_DATABASE_URL not set)'}`, pool ? () => createPostgresDriver({ pool, schema }) : null],
];

describe.each(drivers)('a stop probe on %s', (_name, createDriver) => {
  it.skipIf(!createDriver)('does not refuse a turn sent while it asks whether one runs elsewhere', async () => {
    const gated = gatedReleases(createDriver!());
    const f = chatFixture(scriptedModel([textStep('Answered.')]).model, { driver: gated.driver });
    const chatId = await f.createChat('alice');
    const stopping = f.request('POST', `/chats/${chatId}/stop`);
    // Wait for the probe to have taken the lease (the old way), or to have answered without taking it.
    await Promise.race([gated.firstTaken, stopping]);
    const turn = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Hi' } });
    gated.open();
    expect(turn.status).toBe(200);
    expect((await readSse(turn)).chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(await (await stopping).json()).toEqual({ stopped: false });
    expect(f.errors).toEqual([]);
  });
});
