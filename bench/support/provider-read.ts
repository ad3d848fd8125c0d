/**
 * Child of the real-path benches: reads the loopback provider's paced Anthropic SSE `streams` at a time
 * (argv: provider port, streams, deltas per stream) in one of four ways, and reports this process's CPU per
 * text delta for each (user + system, from the first request to the last byte; after a warm-up round of each,
 * as many rounds as the fourth argument says (default 3) of every variant in rotating order, median reported;
 * a fifth argument runs one variant only, and without an IPC channel the figures are printed, for profiles:
 * `READ_PROFILE=/tmp/read node --import tsx bench/support/provider-read.ts <port> 60 40 3` writes a CPU profile of
 * each variant's first measured round to /tmp/read-<variant>.cpuprofile):
 * - `http-split`: a keep-alive node:http agent, SSE split by hand, `JSON.parse` of each event;
 * - `fetch-split`: the global fetch, the same parsing;
 * - `package-fetch`: `@ai-sdk/anthropic` `doStream` read to the end (the package on the global fetch);
 * - `package-node-fetch`: the same with chatwire's `createNodeHttpFetch()` as the package's `fetch`;
 * - `chatwire-fast-path`: the same model through chatwire's provider_a fast path (`withAnthropicFastPath`:
 *   the package builds the request, chatwire parses the SSE read from `createNodeHttpFetch()`'s Node stream).
 */
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { withAnthropicFastPath } from '../../packages/core/src/models/anthropic-fast-path/with-anthropic-fast-path.js';
import { createNodeHttpFetch } from '../../packages/core/src/models/node-http-fetch.js';
import { createAnthropic } from './real-path-deps.js';
import { VENDOR_MODEL } from './real-path-line.js';

export const READ_VARIANTS = ['http-split', 'fetch-split', 'package-fetch', 'package-node-fetch', 'chatwire-fast-path'] as const;
export type ReadVariant = (typeof READ_VARIANTS)[number];
/** The median over the rounds, and every round's figure (µs per text delta). */
export type ReadReply = { type: 'read'; variant: ReadVariant; cpuPerDeltaUs: number; deltas: number; runs: number[] };

const [portArg, streamsArg = '60', deltasArg = '60', roundsArg = '3', only] = process.argv.slice(2);
const base = `http://127.0.0.1:${portArg}/v1`;
const streams = Number(streamsArg);
const expected = Number(deltasArg);
const body = JSON.stringify({ model: VENDOR_MODEL, max_tokens: 4096, stream: true, messages: [{ role: 'user', content: 'hi' }] });
const agent = new Agent({ keepAlive: true });

/** Text deltas in SSE text, split by hand (events end with a blank line; `data:` lines parsed as JSON). */
function splitter(): (text: string) => number {
  let rest = '';
  return (text) => {
    let count = 0;
    rest += text;
    let end = rest.indexOf('\n\n');
    while (end !== -1) {
      const event = rest.slice(0, end);
      rest = rest.slice(end + 2);
      const data = event.slice(event.indexOf('data: ') + 6);
      const parsed = JSON.parse(data) as { type: string; delta?: { type: string } };
      if (parsed.type === 'content_block_delta' && parsed.delta?.type === 'text_delta') count++;
      end = rest.indexOf('\n\n');
    }
    return count;
  };
}

function httpSplit(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(portArg), path: '/v1/messages', method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const split = splitter();
      let count = 0;
      res.setEncoding('utf8');
      res.on('data', (text: string) => (count += split(text)));
      res.on('end', () => resolve(count));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function fetchSplit(): Promise<number> {
  const response = await fetch(`${base}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const split = splitter();
  const decoder = new TextDecoder();
  let count = 0;
  const reader = response.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) count += split(decoder.decode(r.value, { stream: true }));
  return count;
}

const onGlobalFetch = createAnthropic({ baseURL: base, apiKey: 'bench-key' })(VENDOR_MODEL);
const onNodeFetch = createAnthropic({ baseURL: base, apiKey: 'bench-key', fetch: createNodeHttpFetch() })(VENDOR_MODEL);
const fastPathFetch = createNodeHttpFetch();
const fastPath = withAnthropicFastPath({ createModel: (fetch) => createAnthropic({ baseURL: base, apiKey: 'bench-key', fetch })(VENDOR_MODEL), fetch: fastPathFetch });

async function viaPackage(model: Pick<typeof onGlobalFetch, 'doStream'>): Promise<number> {
  const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], maxOutputTokens: 4096 });
  let count = 0;
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) if (r.value.type === 'text-delta') count++;
  return count;
}

const read: Record<ReadVariant, () => Promise<number>> = {
  'http-split': httpSplit,
  'fetch-split': fetchSplit,
  'package-fetch': () => viaPackage(onGlobalFetch),
  'package-node-fetch': () => viaPackage(onNodeFetch),
  'chatwire-fast-path': () => viaPackage(fastPath),
};

// Rounds of the variants in rotating order (a noisy moment of the machine hits each alike); median per variant.
const variants = READ_VARIANTS.filter((v) => only === undefined || v === only);
const rounds = Number(roundsArg);
const samples = new Map<ReadVariant, number[]>(variants.map((v) => [v, []]));
const round = async (variant: ReadVariant) => (await Promise.all(Array.from({ length: streams }, () => read[variant]()))).reduce((a, b) => a + b, 0);
for (const variant of variants) await round(variant);
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < variants.length; k++) {
    const variant = variants[(r + k) % variants.length]!;
    const session = process.env.READ_PROFILE && r === 0 ? new Session() : null;
    session?.connect();
    await session?.post('Profiler.enable');
    await session?.post('Profiler.start');
    const cpu0 = process.cpuUsage();
    const deltas = await round(variant);
    const cpu = process.cpuUsage(cpu0);
    if (session) writeFileSync(`${process.env.READ_PROFILE}-${variant}.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile));
    if (deltas !== streams * expected) throw new Error(`${variant}: ${deltas} deltas, expected ${streams * expected}`);
    samples.get(variant)!.push((cpu.user + cpu.system) / deltas);
  }
}
for (const variant of variants) {
  const sorted = [...samples.get(variant)!].sort((a, b) => a - b);
  const reply: ReadReply = { type: 'read', variant, cpuPerDeltaUs: sorted[Math.floor(sorted.length / 2)]!, deltas: streams * expected, runs: sorted };
  if (process.send) process.send(reply);
  else process.stdout.write(`${variant}: ${reply.cpuPerDeltaUs.toFixed(1)} us per text delta (rounds ${sorted.map((v) => v.toFixed(0)).join('/')})\n`);
}
process.exit(0);
