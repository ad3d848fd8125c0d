import { beforeAll, describe, expect, it } from 'vitest';
import type { Action } from './action.js';
import { decodeActionBatches, decodeActions } from './decode-actions.js';
import { decodeChunks } from './decode-chunks.js';
import { collect, iterableOfPieces, sseBytes, streamOfPieces } from './test-support/byte-streams.js';
import { recordUiStreamBytes } from './test-support/record-ui-stream.js';

const inputError = expect.stringContaining('Invalid input for tool weather');

/** What the recorded turn (real streamText pipeline) must decode to. */
const EXPECTED: Action[] = [
  { type: 'append-text', id: 't1', delta: 'Grüße aus Zürich 👋 ' },
  { type: 'append-text', id: 't1', delta: 'let me check — 東京?' },
  { type: 'upsert-tool-call', toolCallId: 'call-1', state: 'input-streaming', toolName: 'weather' },
  { type: 'upsert-tool-call', toolCallId: 'call-1', state: 'input-streaming', inputTextDelta: '{"city":' },
  { type: 'upsert-tool-call', toolCallId: 'call-1', state: 'input-streaming', inputTextDelta: '"Paris"}' },
  { type: 'upsert-tool-call', toolCallId: 'call-1', state: 'input-available', toolName: 'weather', input: { city: 'Paris' } },
  { type: 'finalize-tool-call', toolCallId: 'call-1', output: { city: 'Paris', temp: 21 } },
  { type: 'fail-tool-input', toolCallId: 'call-2', toolName: 'weather', input: { city: 42 }, errorText: inputError },
  { type: 'fail-tool-output', toolCallId: 'call-2', errorText: inputError },
  { type: 'upsert-tool-call', toolCallId: 'call-3', state: 'input-available', toolName: 'explode', input: {} },
  { type: 'fail-tool-output', toolCallId: 'call-3', errorText: 'boom in tool' },
  { type: 'append-text', id: 't2', delta: 'It is sunny, 21 °C.' },
  { type: 'finish', finishReason: 'stop' },
];

let recorded: Uint8Array;
let crlf: Uint8Array;
let reference: Action[];

beforeAll(async () => {
  recorded = await recordUiStreamBytes();
  // Same stream with CRLF line endings and keep-alive comments between events.
  const text = new TextDecoder().decode(recorded).replaceAll('\n\n', '\n\n: keep-alive\n\n').replaceAll('\n', '\r\n');
  crlf = new TextEncoder().encode(text);
  reference = await collect(decodeActions(streamOfPieces([recorded])));
});

describe('decodeActions on a stream recorded from the real ai pipeline', () => {
  it('decodes the whole body to the expected actions', () => {
    expect(reference).toEqual(EXPECTED);
  });

  it('decodes to the same actions when split into two pieces at every byte boundary', async () => {
    for (let i = 1; i < recorded.length; i++) {
      const actions = await collect(decodeActions(streamOfPieces([recorded.subarray(0, i), recorded.subarray(i)])));
      if (JSON.stringify(actions) !== JSON.stringify(reference)) expect({ cut: i, actions }).toEqual({ cut: i, actions: reference });
    }
  });

  it('decodes to the same actions when every byte arrives alone (also as an async iterable)', async () => {
    const single = Array.from(recorded, (_b, i) => recorded.subarray(i, i + 1));
    expect(await collect(decodeActions(streamOfPieces(single)))).toEqual(reference);
    expect(await collect(decodeActions(iterableOfPieces(single)))).toEqual(reference);
  });

  it('decodes the CRLF + keep-alive variant to the same actions at every cut', async () => {
    for (let i = 0; i <= crlf.length; i += 7) {
      const actions = await collect(decodeActions(streamOfPieces([crlf.subarray(0, i), crlf.subarray(i)])));
      if (JSON.stringify(actions) !== JSON.stringify(reference)) expect({ cut: i, actions }).toEqual({ cut: i, actions: reference });
    }
  });

  it('delivers the same actions in non-empty batches, one per read, with decodeActionBatches', async () => {
    for (const size of [1, 13, 100, 4096]) {
      const pieces: Uint8Array[] = [];
      for (let i = 0; i < recorded.length; i += size) pieces.push(recorded.subarray(i, i + size));
      const batches = await collect(decodeActionBatches(streamOfPieces(pieces)));
      expect(batches.every((b) => b.length > 0)).toBe(true);
      expect(batches.length).toBeLessThanOrEqual(pieces.length + 1);
      expect(batches.flat()).toEqual(reference);
    }
  });

  it('exposes the raw chunks too, starting with start(messageId) and never reasoning', async () => {
    const chunks = await collect(decodeChunks(streamOfPieces([recorded])));
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'asst-rec-1' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(chunks.filter((c) => c.type.startsWith('reasoning'))).toEqual([]);
  });
});

describe('decodeActions end-of-stream rules', () => {
  it('skips malformed lines and reports them through onSkippedLine', async () => {
    const skipped: string[] = [];
    const bytes = sseBytes('data: {oops\n\n', { type: 'nope' }, { type: 'text-delta', id: 't', delta: 'a' }, { type: 'finish' }, 'data: [DONE]\n\n');
    const actions = await collect(decodeActions(streamOfPieces([bytes]), { onSkippedLine: (_l, r) => skipped.push(r) }));
    expect(actions).toEqual([{ type: 'append-text', id: 't', delta: 'a' }, { type: 'finish' }]);
    expect(skipped).toEqual(['invalid-json', 'invalid-chunk']);
  });

  it('ends a server-aborted stream with abort and adds nothing after it', async () => {
    const bytes = sseBytes({ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'x' }, { type: 'abort' }, 'data: [DONE]\n\n');
    expect(await collect(decodeActions(streamOfPieces([bytes])))).toEqual([
      { type: 'append-text', id: 't', delta: 'x' },
      { type: 'abort', origin: 'server' },
    ]);
  });

  it('adds a network stream-error when the body ends before finish/abort/error', async () => {
    const bytes = sseBytes({ type: 'text-delta', id: 't', delta: 'x' });
    const actions = await collect(decodeActions(streamOfPieces([bytes])));
    expect(actions.at(-1)).toEqual({ type: 'stream-error', errorText: expect.stringContaining('ended'), origin: 'network' });
  });

  it('turns a failing read into stream-error (network) instead of throwing', async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (!sent) c.enqueue(sseBytes({ type: 'text-delta', id: 't', delta: 'x' }));
        else c.error(new TypeError('socket hang up'));
        sent = true;
      },
    });
    expect(await collect(decodeActions(body))).toEqual([
      { type: 'append-text', id: 't', delta: 'x' },
      { type: 'stream-error', errorText: 'socket hang up', origin: 'network' },
    ]);
  });

  it('turns a read failing after the signal fired into abort (client)', async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        controller.abort();
        c.error(new DOMException('aborted', 'AbortError'));
      },
    });
    expect(await collect(decodeActions(body, { signal: controller.signal }))).toEqual([{ type: 'abort', origin: 'client' }]);
  });

  it('decodeChunks rejects on a failing read (the raw layer does not hide errors)', async () => {
    const body = new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error('reset')) });
    await expect(collect(decodeChunks(body))).rejects.toThrow('reset');
  });

  it('cancels the body when the consumer breaks out of the loop', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(sseBytes({ type: 'text-delta', id: 't', delta: 'x' })),
      cancel: () => {
        cancelled = true;
      },
    });
    for await (const _action of decodeActions(body)) break;
    expect(cancelled).toBe(true);
  });
});
