import { describe, expect, it } from 'vitest';
import { createLayeredTurnHub } from './create-layered-turn-hub.js';
import { createMemoryTurnHub } from './create-memory-turn-hub.js';
import type { TurnHub } from './turn-hub.js';

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
}

/** A shared hub that is down: every call fails. */
const brokenHub = (): TurnHub => ({
  open: () => {
    throw new Error('shared hub down');
  },
  attach: () => Promise.reject(new Error('shared hub down')),
  close: () => Promise.reject(new Error('shared hub down')),
});

describe('createLayeredTurnHub', () => {
  it('writes every turn to both hubs and serves a turn running here from the local one', async () => {
    const local = createMemoryTurnHub();
    const shared = createMemoryTurnHub();
    const hub = createLayeredTurnHub({ local, shared });
    const writer = hub.open('c1', 'a1');
    writer.append(bytes('data: one\n\n'));
    expect(local.stats().bytes).toBe(11);
    expect(shared.stats().bytes).toBe(11);
    const attached = await hub.attach('c1');
    expect(attached?.turnId).toBe('a1');
    expect(local.stats().readers).toBe(1);
    expect(shared.stats().readers).toBe(0);
    await writer.end();
    expect(await readAll(attached!.stream)).toBe('data: one\n\n');
    expect(shared.stats().turns).toBe(0);
  });

  it('serves a turn running on another process from the shared hub', async () => {
    const shared = createMemoryTurnHub();
    const elsewhere = createLayeredTurnHub({ local: createMemoryTurnHub(), shared });
    const here = createLayeredTurnHub({ local: createMemoryTurnHub(), shared });
    const writer = elsewhere.open('c1', 'a1');
    writer.append(bytes('data: one\n\n'));
    const attached = await here.attach('c1');
    await writer.end();
    expect(attached?.turnId).toBe('a1');
    expect(await readAll(attached!.stream)).toBe('data: one\n\n');
    expect(await here.attach('c1')).toBeNull();
  });

  it('falls back to the local hub when the shared one fails, reporting each failure', async () => {
    const errors: unknown[] = [];
    const hub = createLayeredTurnHub({ local: createMemoryTurnHub(), shared: brokenHub(), onError: (e) => errors.push(e) });
    const writer = hub.open('c1', 'a1');
    writer.append(bytes('data: one\n\n'));
    const attached = await hub.attach('c1');
    expect(await hub.attach('c2')).toBeNull();
    await expect(writer.end()).resolves.toBeUndefined();
    expect(await readAll(attached!.stream)).toBe('data: one\n\n');
    await expect(hub.close()).resolves.toBeUndefined();
    expect(errors).toEqual([new Error('shared hub down'), new Error('shared hub down')]);
  });
});
