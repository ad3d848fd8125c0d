/**
 * Attachments: (1) upload throughput through the node adapter against a raw node:http handler writing the same
 * bytes into the same blob store (goal >= 0.7x), with a third line for the ceiling the record's SHA-256 sets (that raw
 * handler hashing every byte, nothing else); (2) memory while 20 uploads of 10 MiB stream in at once, into a
 * blob store that keeps nothing, so what is measured is what the upload path holds (goal: bounded, far from the
 * 200 MiB sent); (3) the added time of a turn with one 1 MiB image against the same turn without it (mock model,
 * in-process: chatwire's own cost of reading, checking and inlining the bytes, beyond any provider's).
 */
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { toNodeListener } from '@chatwire/server/node';
import { createMemoryBlobStore, type BlobStore } from '@chatwire/storage';
import type { BenchRow } from './bench-row.js';
import { createBenchModel } from './support/bench-model.js';
import { QUICK } from './support/quick.js';
import { quantile } from './support/stats.js';
import { signHs256 } from './support/sign-hs256.js';

const SECRET = 'bench-attachments-secret-of-32-bytes!!';
const MiB = 1024 * 1024;
/** A PNG signature and IHDR chunk. */
const PNG_SIGNATURE_IHDR = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

/**
 * The start of a `size`-byte PNG as an image's bytes begin: signature, IHDR, then the header of one IDAT chunk
 * spanning the rest (its CRC and IEND in the last 16 bytes). file-type reads up to the IDAT header and stops, as
 * it does on real images; filler with no chunk structure after IHDR sent it through its error paths instead
 * (~20-110 µs a sniff rather than ~8), a cost real uploads do not have.
 */
function pngHead(size: number): Buffer {
  const idat = Buffer.alloc(8);
  idat.writeUInt32BE(size - PNG_SIGNATURE_IHDR.length - idat.length - 16, 0);
  idat.write('IDAT', 4, 'latin1');
  return Buffer.concat([PNG_SIGNATURE_IHDR, idat]);
}

const token = async () => signHs256({ sub: 'bench' }, SECRET, 3600);

/** A blob store that reads every byte and keeps none. */
function discardingStore(): BlobStore {
  return {
    name: 'discard',
    async put(_key, body) {
      let size = 0;
      for await (const chunk of body) size += chunk.byteLength;
      return { size };
    },
    get: async () => null,
    delete: async () => false,
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** POSTs `size` bytes (a PNG head, then filler) in 64 KiB chunks, paced by the socket; resolves with the status. */
function post(port: number, path: string, size: number, auth: string, paceMs = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { authorization: `Bearer ${auth}`, 'content-type': 'image/png', 'content-length': size } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    const filler = Buffer.alloc(64 * 1024, 0x61);
    const head = pngHead(size);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const chunk = sent === 0 ? head : filler.subarray(0, Math.min(filler.length, size - sent));
        sent += chunk.length;
        const more = req.write(chunk);
        if (paceMs > 0 && sent < size) return void setTimeout(pump, paceMs);
        if (!more) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

async function throughput(): Promise<BenchRow[]> {
  const files = QUICK ? 24 : 160;
  const size = MiB;
  const blobs = createMemoryBlobStore();
  // A quota no run reaches: every round's uploads are stored (a 429 answered early would pass for speed).
  const handler = createChatHandler({ models: createModelRegistry({}), auth: { secret: SECRET }, summarizerModelId: false, attachments: { blobs, quotaBytesPerUser: 1024 * 1024 * MiB } });
  const chatwire = createServer(toNodeListener(handler));
  let n = 0;
  const raw = createServer((req, res) => {
    void blobs.put(`raw${n++}`, req).then(() => res.writeHead(201, { 'content-type': 'application/json' }).end('{}'));
  });
  // The ceiling of any handler that keeps DESIGN.md's `sha256`: the raw handler also hashing every byte on its
  // thread (as the upload path does), and nothing else: no auth, sniff, limits, record or signed URL.
  const hashing = createServer((req, res) => {
    const hash = createHash('sha256');
    async function* hashed(): AsyncGenerator<Uint8Array> {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        hash.update(chunk);
        yield chunk;
      }
    }
    void blobs.put(`hashed${n++}`, hashed()).then(() => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sha256: hash.digest('hex') })));
  });
  const [cwPort, rawPort, hashPort] = [await listen(chatwire), await listen(raw), await listen(hashing)];
  const auth = await token();
  const run = async (port: number, path: string) => {
    const t0 = performance.now();
    for (let i = 0; i < files; i += 4) {
      const statuses = await Promise.all([0, 1, 2, 3].map(() => post(port, path, size, auth)));
      if (statuses.some((status) => status !== 201)) throw new Error(`upload throughput: ${path} answered ${statuses.join(', ')}, not 201`);
    }
    const mibPerSecond = (files * size) / MiB / ((performance.now() - t0) / 1000);
    for await (const { key } of blobs.list!()) await blobs.delete(key); // each run starts from an empty store
    return mibPerSecond;
  };
  const lines = [() => run(cwPort, '/api/ai/attachments'), () => run(rawPort, '/raw'), () => run(hashPort, '/hashed')];
  for (const line of lines) await line();
  // Rounds of one run per line, the order rotated every round; a ratio is the median of the rounds' ratios, so a
  // shift of the machine's load between rounds (this machine is shared) moves both sides of a ratio alike.
  const runs: [number[], number[], number[]] = [[], [], []]; // MiB/s per round: chatwire, raw, hash-only
  for (let round = 0; round < (QUICK ? 3 : 9); round++) {
    for (let k = 0; k < lines.length; k++) {
      const line = (round + k) % lines.length;
      runs[line]!.push(await lines[line]!());
    }
  }
  const [cw, bare, hashedOnly] = runs;
  const perRound = (a: number[], b: number[]) => a.map((x, i) => x / b[i]!);
  const ratios = perRound(cw, bare);
  const ceilings = perRound(hashedOnly, bare);
  chatwire.close();
  raw.close();
  hashing.close();
  const ceiling = quantile(ceilings, 0.5);
  const [c, r, ratio] = [quantile(cw, 0.5), quantile(bare, 0.5), quantile(ratios, 0.5)];
  return [
    { group: 'attachments', name: `upload throughput, ${files} x 1 MiB, 4 at once, POST /attachments (memory store)`, value: c, unit: 'MiB/s', ratio: { value: ratio, against: 'raw node:http writing the same store (median of paired rounds)' }, goal: '>= 0.7x', met: ratio >= 0.7, note: `rounds: ${ratios.map((x) => x.toFixed(2)).join(', ')}` },
    { group: 'attachments', name: 'upload throughput, raw node:http handler into the same store', value: r, unit: 'MiB/s' },
    { group: 'attachments', name: 'upload throughput, the raw handler also hashing (SHA-256): the ceiling with the record\'s sha256', value: quantile(hashedOnly, 0.5), unit: 'MiB/s', ratio: { value: ceiling, against: 'raw node:http writing the same store (median of paired rounds)' }, note: `rounds: ${ceilings.map((x) => x.toFixed(2)).join(', ')}; chatwire against this line: ${quantile(perRound(cw, hashedOnly), 0.5).toFixed(2)}x` },
  ];
}

async function memory(): Promise<BenchRow[]> {
  const handler = createChatHandler({ models: createModelRegistry({}), auth: { secret: SECRET }, summarizerModelId: false, attachments: { blobs: discardingStore(), quotaBytesPerUser: 1024 * MiB } });
  const server = createServer(toNodeListener(handler));
  const port = await listen(server);
  const auth = await token();
  globalThis.gc?.();
  const used = () => { const m = process.memoryUsage(); return m.heapUsed + m.external + m.arrayBuffers; };
  const base = used();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, used())), 5);
  const statuses = await Promise.all(Array.from({ length: 20 }, () => post(port, '/api/ai/attachments', 10 * MiB - 1024, auth, QUICK ? 0 : 1)));
  clearInterval(sampler);
  server.close();
  const held = (peak - base) / MiB;
  return [
    {
      group: 'attachments',
      name: `memory while 20 uploads of 10 MiB stream at once (peak heap + external - before; ${statuses.filter((s) => s === 201).length}/20 stored)`,
      value: held,
      unit: 'MiB',
      goal: 'bounded: < 100 MiB of the 200 MiB sent (client buffers of this process included)',
      met: held < 100,
    },
  ];
}

async function turnCost(): Promise<BenchRow[]> {
  const reps = QUICK ? 30 : 150;
  const model = createBenchModel({ deltas: 5, delta: 'ok ' });
  const handler = createChatHandler({ models: createModelRegistry({ fallbackModel: model }), auth: { secret: SECRET }, summarizerModelId: false, attachments: { quotaBytesPerUser: 1024 * MiB } });
  const auth = await token();
  const headers = { authorization: `Bearer ${auth}`, 'content-type': 'application/json' };
  const head = pngHead(MiB);
  const image = Buffer.concat([head, Buffer.alloc(MiB - head.length, 0x61)]);
  const call = (path: string, init: RequestInit) => handler(new Request(`http://localhost/api/ai${path}`, init));
  const ids: string[] = [];
  for (let i = 0; i < reps + 5; i++) {
    const res = await call('/attachments', { method: 'POST', headers: { authorization: headers.authorization, 'content-type': 'image/png' }, body: image });
    ids.push(((await res.json()) as { attachment: { attachmentId: string } }).attachment.attachmentId);
  }
  const turn = async (attachments?: string[]) => {
    const chat = (await (await call('/chats', { method: 'POST', headers, body: '{}' })).json()) as { chat: { recordId: string } };
    const body = JSON.stringify({ chatId: chat.chat.recordId, userMessageId: crypto.randomUUID(), content: 'What is this?', ...(attachments ? { attachments } : {}) });
    const t0 = performance.now();
    const res = await call('/chat', { method: 'POST', headers, body });
    await res.arrayBuffer();
    return performance.now() - t0;
  };
  const withImage: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < reps + 5; i++) {
    const a = await turn([ids[i]!]);
    const b = await turn();
    if (i >= 5) {
      withImage.push(a);
      without.push(b);
    }
  }
  const added = quantile(withImage, 0.5) - quantile(without, 0.5);
  return [
    { group: 'attachments', name: 'added time of a turn with one 1 MiB image (p50, in-process, mock model)', value: added, unit: 'ms', note: `with ${quantile(withImage, 0.5).toFixed(2)} ms, without ${quantile(without, 0.5).toFixed(2)} ms` },
  ];
}

export default async function attachmentsBench(): Promise<BenchRow[]> {
  return [...(await throughput()), ...(await memory()), ...(await turnCost())];
}
