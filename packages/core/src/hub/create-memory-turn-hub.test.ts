import { describe, expect, it } from 'vitest';
import { createMemoryTurnHub } from './create-memory-turn-hub.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const sse = (chunk: object): Uint8Array => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
const DONE = encoder.encode('data: [DONE]\n\n');
const TOO_LONG = 'data: {"type":"error","errorText":"The stream is too long to resume."}\n\ndata: [DONE]\n\n';

const turnChunks = (count: number): Uint8Array[] => [
  sse({ type: 'start', messageId: 'a1' }),
  ...Array.from({ length: count }, (_, i) => sse({ type: 'text-delta', id: 't0', delta: `word ${i} ` })),
  sse({ type: 'finish' }),
  DONE,
];

const concat = (chunks: Uint8Array[]): string => chunks.map((c) => decoder.decode(c)).join('');

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value);
  }
}

/** Lets pending promise callbacks (pulls, reads) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createMemoryTurnHub', () => {
  it('returns null when no turn of the chat runs, and after the turn ended', async () => {
    const hub = createMemoryTurnHub();
    expect(await hub.attach('c1')).toBeNull();
    const writer = hub.open('c1', 'a1');
    expect((await hub.attach('c1'))?.turnId).toBe('a1');
    expect(await hub.attach('c2')).toBeNull();
    await writer.end();
    expect(await hub.attach('c1')).toBeNull();
  });

  it('replays a running turn from its first byte, then follows it live to the end', async () => {
    const hub = createMemoryTurnHub();
    const chunks = turnChunks(5);
    const writer = hub.open('c1', 'a1');
    for (const chunk of chunks.slice(0, 3)) writer.append(chunk);
    const attached = await hub.attach('c1');
    const reader = attached!.stream.getReader();
    let received = '';
    while (received.length < concat(chunks.slice(0, 3)).length) received += decoder.decode((await reader.read()).value);
    expect(received).toBe(concat(chunks.slice(0, 3)));

    // live: a reader waiting at the end gets the next append before the turn ends
    const next = reader.read();
    await settle();
    writer.append(chunks[3]!);
    received += decoder.decode((await next).value);
    expect(received).toBe(concat(chunks.slice(0, 4)));
    for (const chunk of chunks.slice(4)) writer.append(chunk);
    await writer.end();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += decoder.decode(value);
    }
    expect(received).toBe(concat(chunks));
  });

  it('gives readers that attach at different times byte-identical output', async () => {
    const hub = createMemoryTurnHub();
    const chunks = turnChunks(50);
    const writer = hub.open('c1', 'a1');
    const outputs: Promise<string>[] = [];
    for (const [i, chunk] of chunks.entries()) {
      if (i % 10 === 0) outputs.push(hub.attach('c1').then((t) => readAll(t!.stream)));
      writer.append(chunk);
      if (i % 7 === 0) await settle();
    }
    await writer.end();
    const texts = await Promise.all(outputs);
    expect(texts).toHaveLength(6);
    for (const text of texts) expect(text).toBe(concat(chunks));
  });

  it('keeps its own copy of appended bytes, so the producer may reuse its buffer', async () => {
    const hub = createMemoryTurnHub();
    const writer = hub.open('c1', 'a1');
    const buffer = encoder.encode('data: {"type":"start"}\n\n');
    writer.append(buffer);
    buffer.fill(0);
    const attached = await hub.attach('c1');
    await writer.end();
    expect(await readAll(attached!.stream)).toBe('data: {"type":"start"}\n\n');
  });

  it('lets a reader cancel without affecting the producer or other readers', async () => {
    const hub = createMemoryTurnHub();
    const chunks = turnChunks(10);
    const writer = hub.open('c1', 'a1');
    writer.append(chunks[0]!);
    const leaving = (await hub.attach('c1'))!.stream.getReader();
    const staying = readAll((await hub.attach('c1'))!.stream);
    await leaving.read();
    const pending = leaving.read();
    await settle();
    await leaving.cancel();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(hub.stats().readers).toBe(1);
    for (const chunk of chunks.slice(1)) writer.append(chunk);
    await writer.end();
    expect(await staying).toBe(concat(chunks));
    expect(hub.stats().readers).toBe(0);
  });

  it('drops bytes past the cap, and a reader reaching the cap gets an error chunk and [DONE]', async () => {
    const hub = createMemoryTurnHub({ maxBytesPerTurn: 100 });
    const writer = hub.open('c1', 'a1');
    const first = encoder.encode(`data: ${'x'.repeat(60)}\n\n`);
    const second = encoder.encode(`data: ${'y'.repeat(60)}\n\n`);
    writer.append(first);
    const early = (await hub.attach('c1'))!.stream;
    writer.append(second);
    writer.append(encoder.encode('data: {"type":"finish"}\n\n'));
    // a reader reaching the cap ends there even while the turn still runs
    const late = (await hub.attach('c1'))!.stream;
    expect(await readAll(late)).toBe(decoder.decode(first) + TOO_LONG);
    expect(await readAll(early)).toBe(decoder.decode(first) + TOO_LONG);
    expect(hub.stats().bytes).toBe(first.byteLength);
    await writer.end();
  });

  it('holds nothing once a turn ended: the log is freed even while a reader still drains it', async () => {
    const hub = createMemoryTurnHub();
    const chunks = turnChunks(100);
    const writer = hub.open('c1', 'a1');
    for (const chunk of chunks) writer.append(chunk);
    const attached = await hub.attach('c1');
    expect(hub.stats()).toMatchObject({ turns: 1, bytes: chunks.reduce((n, c) => n + c.byteLength, 0), readers: 1 });
    await writer.end();
    expect(hub.stats()).toEqual({ turns: 0, bytes: 0, allocatedBytes: 0, readers: 1 });
    expect(await readAll(attached!.stream)).toBe(concat(chunks));
    expect(hub.stats()).toEqual({ turns: 0, bytes: 0, allocatedBytes: 0, readers: 0 });
  });

  it('keeps a turn of many small chunks in a few blocks, allocating less than 4 KiB beyond its bytes', async () => {
    const hub = createMemoryTurnHub();
    const chunks = turnChunks(3000);
    const writer = hub.open('c1', 'a1');
    for (const chunk of chunks) writer.append(chunk);
    const { bytes, allocatedBytes } = hub.stats();
    expect(bytes).toBe(chunks.reduce((n, c) => n + c.byteLength, 0));
    expect(allocatedBytes - bytes).toBeGreaterThanOrEqual(0);
    expect(allocatedBytes - bytes).toBeLessThan(4096);
    // one append larger than a block is split across blocks and read back whole
    const big = encoder.encode(`data: ${'z'.repeat(10_000)}\n\n`);
    const attached = await hub.attach('c1');
    writer.append(big);
    await writer.end();
    expect(await readAll(attached!.stream)).toBe(concat([...chunks, big]));
  });

  it('drops appends after end and treats a second end as a no-op', async () => {
    const hub = createMemoryTurnHub();
    const writer = hub.open('c1', 'a1');
    const attached = await hub.attach('c1');
    writer.append(DONE);
    await writer.end();
    writer.append(sse({ type: 'late' }));
    await writer.end();
    expect(await readAll(attached!.stream)).toBe('data: [DONE]\n\n');
  });

  it('serves the newest turn of a chat; an earlier writer ending later does not drop it', async () => {
    const hub = createMemoryTurnHub();
    const old = hub.open('c1', 'a1');
    const oldReader = (await hub.attach('c1'))!.stream;
    const current = hub.open('c1', 'a2');
    old.append(sse({ type: 'old' }));
    await old.end();
    expect(await readAll(oldReader)).toBe(concat([sse({ type: 'old' })]));
    expect((await hub.attach('c1'))?.turnId).toBe('a2');
    await current.end();
    expect(await hub.attach('c1')).toBeNull();
  });

  it('errors a reader whose signal aborts, and rejects an attach with an aborted signal', async () => {
    const hub = createMemoryTurnHub();
    const writer = hub.open('c1', 'a1');
    writer.append(sse({ type: 'start' }));
    const controller = new AbortController();
    const reader = (await hub.attach('c1', { signal: controller.signal }))!.stream.getReader();
    await reader.read();
    const pending = reader.read();
    await settle();
    controller.abort(new Error('client gone'));
    await expect(pending).rejects.toThrow('client gone');
    expect(hub.stats().readers).toBe(0);
    await expect(hub.attach('c1', { signal: controller.signal })).rejects.toThrow('client gone');
    writer.append(DONE);
    await writer.end();
  });

  it('on close, gives attached readers an interrupted ending and stays harmless for producers', async () => {
    const hub = createMemoryTurnHub();
    const writer = hub.open('c1', 'a1');
    writer.append(sse({ type: 'start' }));
    const attached = await hub.attach('c1');
    await hub.close();
    writer.append(DONE);
    await writer.end();
    expect(await readAll(attached!.stream)).toBe(
      concat([sse({ type: 'start' })]) + 'data: {"type":"error","errorText":"The turn was interrupted."}\n\ndata: [DONE]\n\n',
    );
    expect(await hub.attach('c1')).toBeNull();
    hub.open('c2', 'a2').append(DONE);
    expect(await hub.attach('c2')).toBeNull();
  });

  it('rejects a cap that is not a positive integer', () => {
    expect(() => createMemoryTurnHub({ maxBytesPerTurn: 0 })).toThrow(/maxBytesPerTurn/);
  });
});
