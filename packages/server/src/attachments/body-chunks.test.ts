import { describe, expect, it } from 'vitest';
import { bodyChunks } from './body-chunks.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A body that sends `count` chunks, `gapMs` apart, then either ends or stalls forever. */
function body(count: number, gapMs: number, stall = false) {
  let cancelled = false;
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === count) {
        if (stall) return new Promise<void>(() => undefined);
        return controller.close();
      }
      await sleep(gapMs);
      controller.enqueue(new Uint8Array([sent++]));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

describe('bodyChunks', () => {
  it('passes every chunk on while bytes keep coming, even when the whole body takes longer than the idle limit', async () => {
    const { stream } = body(6, 15);
    const seen: number[] = [];
    for await (const chunk of bodyChunks(stream, 40)) seen.push(chunk[0]!);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a body that stalls is a TIMEOUT, and the stream is cancelled', async () => {
    const { stream, cancelled } = body(2, 1, true);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const chunk of bodyChunks(stream, 40)) seen.push(chunk[0]!);
      })(),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(seen).toEqual([0, 1]);
    expect(cancelled()).toBe(true);
  });

  it("the consumer's own time does not count as the client's idleness", async () => {
    const { stream } = body(3, 1);
    const seen: number[] = [];
    for await (const chunk of bodyChunks(stream, 30)) {
      seen.push(chunk[0]!);
      await sleep(80); // a slow store
    }
    expect(seen).toEqual([0, 1, 2]);
  });

  it('a stream that fails mid-body (the client went away) is a VALIDATION error on the body, with the failure as cause', async () => {
    const aborted = new DOMException('The client closed the connection', 'AbortError');
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new Uint8Array([7]));
        else controller.error(aborted);
      },
    });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const chunk of bodyChunks(stream, 1000)) seen.push(chunk[0]!);
      })(),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { field: 'body' }, cause: aborted });
    expect(seen).toEqual([7]);
  });

  it('stopping early cancels the stream', async () => {
    const { stream, cancelled } = body(10, 1);
    for await (const chunk of bodyChunks(stream, 1000)) if (chunk[0] === 1) break;
    expect(cancelled()).toBe(true);
  });
});
