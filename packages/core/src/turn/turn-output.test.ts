import type { UIMessageChunk } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import type { TurnLogWriter } from '../hub/turn-hub.js';
import { encodeSseChunk, SSE_DONE } from './sse-encoder.js';
import { concatBytes, decodeSse, readBytes } from './testing/sse.js';
import { PUSH_SOURCE } from './push-source.js';
import { TurnOutput } from './turn-output.js';

function recordingLog(): TurnLogWriter & { bytes: Uint8Array[]; ends: number } {
  const log = {
    bytes: [] as Uint8Array[],
    ends: 0,
    append(bytes: Uint8Array) {
      log.bytes.push(bytes.slice());
    },
    async end() {
      log.ends++;
    },
  };
  return log;
}

describe('TurnOutput', () => {
  it('sends each chunk as the bytes encodeSseChunk gives, sendTextDelta as those of the text-delta chunk, then [DONE]', async () => {
    const output = new TurnOutput(null, () => undefined);
    const chunks: UIMessageChunk[] = [
      { type: 'start', messageId: 'a1' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'plain' },
    ];
    for (const chunk of chunks) output.send(chunk);
    output.sendTextDelta('t', 'quote " backslash \\ newline \n emoji 😀 \u2028');
    output.send({ type: 'text-end', id: 't' });
    const read = readBytes(output.response);
    await output.end();
    const expected = concatBytes([
      ...chunks.map((c) => encodeSseChunk(c)),
      encodeSseChunk({ type: 'text-delta', id: 't', delta: 'quote " backslash \\ newline \n emoji 😀 \u2028' }),
      encodeSseChunk({ type: 'text-end', id: 't' }),
      SSE_DONE,
    ]);
    expect(await read).toEqual(expected);
  });

  it('after an error chunk sends nothing but [DONE], and reports itself sealed', async () => {
    const output = new TurnOutput(null, () => undefined);
    output.send({ type: 'text-start', id: 't' });
    expect(output.isSealed).toBe(false);
    output.send({ type: 'error', errorText: 'boom' });
    expect(output.isSealed).toBe(true);
    output.sendTextDelta('t', 'late');
    output.send({ type: 'text-delta', id: 't', delta: 'late' });
    output.closeOpenTexts();
    output.send({ type: 'finish' });
    output.send({ type: 'error', errorText: 'second' });
    const read = readBytes(output.response);
    await output.end();
    const body = decodeSse(await read);
    expect(body.chunks.map((c) => c.type)).toEqual(['text-start', 'error']);
    expect(body.chunks[1]).toEqual({ type: 'error', errorText: 'boom' });
    expect(body.dones).toBe(1);
    expect(body.endsWithDone).toBe(true);
  });

  it('end() writes [DONE] exactly once, closes the response and ends the log once, however often it is called', async () => {
    const log = recordingLog();
    const output = new TurnOutput(log, () => undefined);
    output.send({ type: 'start' });
    const read = readBytes(output.response);
    await Promise.all([output.end(), output.end()]);
    await output.end();
    const body = decodeSse(await read);
    expect(body.dones).toBe(1);
    expect(decodeSse(concatBytes(log.bytes)).dones).toBe(1);
    expect(log.ends).toBe(1);
    expect(output.connected).toBe(false);
  });

  it('closeOpenTexts sends text-end for the blocks still open only, in the order they opened', async () => {
    const output = new TurnOutput(null, () => undefined);
    output.send({ type: 'text-start', id: 'a' });
    output.send({ type: 'text-start', id: 'b' });
    output.send({ type: 'text-start', id: 'c' });
    output.send({ type: 'text-end', id: 'b' });
    output.closeOpenTexts();
    output.closeOpenTexts(); // nothing left open: sends nothing
    const read = readBytes(output.response);
    await output.end();
    const ends = decodeSse(await read).chunks.filter((c) => c.type === 'text-end');
    expect(ends).toEqual([
      { type: 'text-end', id: 'b' },
      { type: 'text-end', id: 'a' },
      { type: 'text-end', id: 'c' },
    ]);
  });

  it('runs onGone once when the response reader cancels; later chunks still reach the log', async () => {
    const onGone = vi.fn();
    const log = recordingLog();
    const output = new TurnOutput(log, onGone);
    output.send({ type: 'start' });
    expect(output.connected).toBe(true);
    const reader = output.response.getReader();
    await reader.read();
    await reader.cancel();
    expect(onGone).toHaveBeenCalledTimes(1);
    expect(output.connected).toBe(false);
    output.send({ type: 'text-start', id: 't' }); // no throw on a cancelled response
    output.sendTextDelta('t', 'x');
    await output.end();
    expect(onGone).toHaveBeenCalledTimes(1);
    expect(decodeSse(concatBytes(log.bytes)).chunks.map((c) => c.type)).toEqual(['start', 'text-start', 'text-delta']);
  });

  it('does not run onGone when the response is cancelled after it ended', async () => {
    const onGone = vi.fn();
    const output = new TurnOutput(null, onGone);
    await output.end();
    await output.response.cancel();
    expect(onGone).not.toHaveBeenCalled();
  });

  it('the log writer receives exactly the bytes the response carries', async () => {
    const log = recordingLog();
    const output = new TurnOutput(log, () => undefined);
    const read = readBytes(output.response);
    output.send({ type: 'start', messageId: 'm' });
    output.send({ type: 'text-start', id: 't' });
    for (let i = 0; i < 50; i++) output.sendTextDelta('t', `d${i} `);
    output.closeOpenTexts();
    output.send({ type: 'error', errorText: 'x' });
    output.sendTextDelta('t', 'dropped');
    await output.end();
    const response = await read;
    expect(concatBytes(log.bytes)).toEqual(response);
  });
  it('hands its bytes to a sink taken before any read: those produced so far, later ones, then the end; cancelling it is the client going away', async () => {
    let gone = 0;
    const output = new TurnOutput(null, () => void (gone += 1));
    output.send({ type: 'start', messageId: 'a1' });
    const written: Uint8Array[] = [];
    let ends = 0;
    const source = output.response[PUSH_SOURCE]!({ write: (bytes) => void written.push(bytes), end: () => void (ends += 1) });
    expect(source).not.toBeNull();
    expect(output.response[PUSH_SOURCE]).toBeUndefined(); // once: the web stream is gone
    output.sendTextDelta('t', 'hi');
    expect(output.connected).toBe(true);
    await output.end();
    expect(concatBytes(written)).toEqual(concatBytes([encodeSseChunk({ type: 'start', messageId: 'a1' }), encodeSseChunk({ type: 'text-delta', id: 't', delta: 'hi' }), SSE_DONE]));
    expect(ends).toBe(1);
    await expect(readBytes(output.response)).rejects.toThrow(/taken by a sink/);
    source!.cancel();
    expect(gone).toBe(0); // after the end the client leaving is nobody's concern

    const other = new TurnOutput(null, () => void (gone += 1));
    const taken = other.response[PUSH_SOURCE]!({ write: () => undefined, end: () => undefined });
    taken!.cancel();
    expect(gone).toBe(1);
    expect(other.connected).toBe(false);
  });

  it('is not handed to a sink once its web stream was read', async () => {
    const output = new TurnOutput(null, () => undefined);
    const read = readBytes(output.response);
    await Promise.resolve();
    expect(output.response[PUSH_SOURCE]!({ write: () => undefined, end: () => undefined })).toBeNull();
    output.send({ type: 'start', messageId: 'a1' });
    await output.end();
    expect(await read).toEqual(concatBytes([encodeSseChunk({ type: 'start', messageId: 'a1' }), SSE_DONE]));
  });
});
