/**
 * The rows of the provider package alone (`provider-read.ts`): CPU per text delta to read the loopback
 * provider's paced stream, by hand over node:http, by hand over fetch, and with `@ai-sdk/anthropic`'s
 * `doStream` read to the end on fetch and on chatwire's node:http fetch.
 */
import type { BenchRow } from '../bench-row.js';
import { channel } from './child-channel.js';
import { sized } from './quick.js';
import type { Provider } from './real-path-children.js';
import { spawnChild } from './real-path-children.js';
import type { ReadReply, ReadVariant } from './provider-read.js';

const STREAMS = 60;
const DELTAS = sized(40, 6);
const ROUNDS = sized(3, 1);

const LABELS: Record<ReadVariant, string> = {
  'http-split': 'node:http keep-alive agent, SSE split by hand, JSON.parse',
  'fetch-split': 'global fetch, the same parsing',
  'package-fetch': '@ai-sdk/anthropic doStream read to the end, on the global fetch',
  'package-node-fetch': "@ai-sdk/anthropic doStream read to the end, on chatwire's node:http fetch",
  'chatwire-fast-path': "chatwire's provider_a fast path (the package's request, chatwire's SSE parser on the node:http body)",
};

type RowFn = (name: string, value: number, unit: string, extra?: Partial<BenchRow>) => BenchRow;

export async function providerReadRows(provider: Provider, row: RowFn): Promise<BenchRow[]> {
  await provider.config(DELTAS, 50);
  const child = spawnChild('provider-read.ts', [String(provider.port), String(STREAMS), String(DELTAS), String(ROUNDS)]);
  const ch = channel<never, ReadReply>(child);
  const got = {} as Record<ReadVariant, number>;
  const runs = {} as Record<ReadVariant, number[]>;
  for (let i = 0; i < Object.keys(LABELS).length; i++) {
    const reply = await ch.next();
    got[reply.variant] = reply.cpuPerDeltaUs;
    runs[reply.variant] = reply.runs;
  }
  const note = `${STREAMS} paced streams at 20 deltas/s, ${DELTAS} deltas each, CPU of the reading process per text delta: median of ${ROUNDS} rounds in rotating order after a warm-up round (rounds: ${(Object.keys(runs) as ReadVariant[]).map((v) => `${v} ${runs[v].map((x) => x.toFixed(0)).join('/')}`).join('; ')})`;
  return (Object.keys(LABELS) as ReadVariant[]).map((variant, i) =>
    row(`provider read alone: ${LABELS[variant]}`, got[variant], 'us', {
      ...(i === 0 ? { note } : { ratio: { value: got[variant] / got['http-split'], against: 'by hand on node:http' } }),
      ...(variant === 'package-node-fetch' ? { summary: `${(got['package-node-fetch'] / got['package-fetch']).toFixed(2)}x the package on the global fetch` } : {}),
    }),
  );
}
