/**
 * Client decoder throughput: bytes -> actions on a ~50 MB recorded UI message stream (mostly text-delta,
 * some tool chunks, keep-alive comments), fed as a ReadableStream of 16 KB Uint8Array pieces.
 * Baselines on the same bytes, same run: the AI SDK's own `parseJsonEventStream({ stream, schema:
 * uiMessageChunkSchema })` and eventsource-parser + JSON.parse (no validation). `--quick`: an ~4 MB stream.
 */
import { createRequire } from 'node:module';
import { chunkToAction, createChunkDecoder, decodeActionBatches, decodeActions } from '@chatwire/client';
import { parseJsonEventStream, uiMessageChunkSchema } from 'ai';
import type { BenchRow } from './bench-row.js';
import { sized } from './support/quick.js';

const TARGET_BYTES = sized(50, 4) * 1024 * 1024;
const PIECE = 16 * 1024;
const ROUNDS = 2;

// eventsource-parser is a dependency of @ai-sdk/provider-utils (itself a dependency of ai), not of the root.
const requireFromAi = createRequire(createRequire(import.meta.url).resolve('ai'));
const requireFromUtils = createRequire(requireFromAi.resolve('@ai-sdk/provider-utils'));
const { createParser } = requireFromUtils('eventsource-parser') as {
  createParser(callbacks: { onEvent: (event: { data: string }) => void }): { feed(chunk: string): void };
};

const words = 'the quick brown fox jumps over a lazy dog while chatwire streams tokens to Zürich and 東京 '.split(' ');

/** One long assistant turn: steps of ~150 text deltas followed by one tool call with a ~1 KB output. */
function buildStream(): { bytes: Uint8Array; chunks: number } {
  const lines: string[] = [];
  let size = 0;
  let chunks = 0;
  const push = (chunk: object) => {
    const line = `data: ${JSON.stringify(chunk)}\n\n`;
    lines.push(line);
    size += line.length;
    chunks++;
  };
  push({ type: 'start', messageId: 'asst-bench' });
  for (let step = 0; size < TARGET_BYTES; step++) {
    push({ type: 'start-step' });
    const textId = `t${step}`;
    push({ type: 'text-start', id: textId });
    for (let i = 0; i < 150; i++) push({ type: 'text-delta', id: textId, delta: ` ${words[(i * 7 + step) % words.length]}` });
    push({ type: 'text-end', id: textId });
    if (step % 10 === 0) lines.push(': keep-alive\n\n');
    const toolCallId = `call-${step}`;
    push({ type: 'tool-input-start', toolCallId, toolName: 'records_query' });
    for (const piece of ['{"collection":', '"orders",', '"filter":{"status":', '"open"},"limit":', '20}']) {
      push({ type: 'tool-input-delta', toolCallId, inputTextDelta: piece });
    }
    const input = { collection: 'orders', filter: { status: 'open' }, limit: 20 };
    push({ type: 'tool-input-available', toolCallId, toolName: 'records_query', input });
    const rows = Array.from({ length: 8 }, (_, i) => ({ recordId: `ord-${step}-${i}`, status: 'open', total: i * 12.5, note: 'äöü ✓' }));
    if (step % 25 === 24) push({ type: 'tool-output-error', toolCallId, errorText: 'collection locked' });
    else push({ type: 'tool-output-available', toolCallId, output: { rows, nextCursor: null } });
    push({ type: 'finish-step' });
  }
  push({ type: 'finish', finishReason: 'stop' });
  lines.push('data: [DONE]\n\n');
  return { bytes: new TextEncoder().encode(lines.join('')), chunks };
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + PIECE));
      offset += PIECE;
    },
  });
}

type Run = () => Promise<number>;
type Result = { ms: number; count: number };

/**
 * Rounds are interleaved (A B C D, A B C D, ...) so every decoder sees the same machine load; the best
 * round of each counts. `count` is what the decoder produced (checked below).
 */
async function measure<K extends string>(runs: Record<K, Run>): Promise<Record<K, Result>> {
  const out: Partial<Record<K, Result>> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(runs) as K[]) {
      const t0 = performance.now();
      const count = await runs[name]();
      const ms = performance.now() - t0;
      const prev = out[name];
      if (!prev || ms < prev.ms) out[name] = { ms, count };
    }
  }
  return out as Record<K, Result>;
}

export default async function bench(): Promise<BenchRow[]> {
  const { bytes, chunks } = buildStream();
  const mb = bytes.length / 1024 / 1024;

  const chatwireRun: Run = async () => {
    let n = 0;
    for await (const _action of decodeActions(streamOf(bytes))) n++;
    return n;
  };
  const chatwireBatchRun: Run = async () => {
    let n = 0;
    for await (const batch of decodeActionBatches(streamOf(bytes))) n += batch.length;
    return n;
  };
  const chatwireSyncRun: Run = async () => {
    let n = 0;
    const decoder = createChunkDecoder({ onChunk: (c) => void (chunkToAction(c) && n++) });
    const reader = streamOf(bytes).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) decoder.push(r.value);
    decoder.end();
    return n;
  };
  const aiSdkRun: Run = async () => {
    let n = 0;
    const reader = parseJsonEventStream({ stream: streamOf(bytes), schema: uiMessageChunkSchema }).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) if (r.value.success) n++;
    return n;
  };
  const espRun: Run = async () => {
    let n = 0;
    const parser = createParser({
      onEvent: (event) => {
        if (event.data !== '[DONE]') {
          JSON.parse(event.data);
          n++;
        }
      },
    });
    const decoder = new TextDecoder();
    const reader = streamOf(bytes).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) parser.feed(decoder.decode(r.value, { stream: true }));
    return n;
  };
  const { chatwire, chatwireBatch, chatwireSync, aiSdk, esp } = await measure({
    chatwire: chatwireRun,
    chatwireBatch: chatwireBatchRun,
    chatwireSync: chatwireSyncRun,
    aiSdk: aiSdkRun,
    esp: espRun,
  });
  if (chatwire.count !== chatwireSync.count || chatwire.count !== chatwireBatch.count) throw new Error('async and sync decoders disagree');
  if (aiSdk.count !== chunks || esp.count !== chunks) throw new Error(`baseline saw ${aiSdk.count}/${esp.count} of ${chunks} chunks`);

  const rate = (r: { ms: number }) => mb / (r.ms / 1000);
  const note = `${mb.toFixed(1)} MB, ${chunks} chunks, ${chatwire.count} actions, 16 KB pieces, best of ${ROUNDS} interleaved rounds`;
  const ratio = rate(chatwire) / rate(aiSdk);
  return [
    { group: 'client', name: 'AI SDK parseJsonEventStream + uiMessageChunkSchema (baseline)', value: rate(aiSdk), unit: 'MB/s', note },
    { group: 'client', name: 'eventsource-parser + JSON.parse, no validation', value: rate(esp), unit: 'MB/s',
      ratio: { value: rate(esp) / rate(aiSdk), against: 'AI SDK parseJsonEventStream' } },
    { group: 'client', name: 'chatwire decodeActions (bytes -> validated chunks -> actions, for await)', value: rate(chatwire), unit: 'MB/s',
      ratio: { value: ratio, against: 'AI SDK parseJsonEventStream' }, goal: '>= 5x faster', met: ratio >= 5, note },
    { group: 'client', name: 'chatwire decodeActionBatches (same, one Action[] per network read)', value: rate(chatwireBatch), unit: 'MB/s',
      ratio: { value: rate(chatwireBatch) / rate(aiSdk), against: 'AI SDK parseJsonEventStream' } },
    { group: 'client', name: 'chatwire createChunkDecoder + chunkToAction (sync core, callback)', value: rate(chatwireSync), unit: 'MB/s',
      ratio: { value: rate(chatwireSync) / rate(aiSdk), against: 'AI SDK parseJsonEventStream' } },
  ];
}
