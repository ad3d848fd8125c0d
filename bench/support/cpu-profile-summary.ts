/**
 * Self time of a `.cpuprofile` (from `profile-real-path.ts` or `node --cpu-prof`) grouped by who owns the
 * code: chatwire's packages, the provider package and its helpers, the AI SDK, zod, web streams, undici,
 * Node's HTTP and sockets, other Node internals, GC, idle (a profiling helper, not a bench):
 *   node --import tsx bench/support/cpu-profile-summary.ts /tmp/real-r2.cpuprofile [top functions]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const OWNERS: Array<[string, RegExp]> = [
  ['chatwire (packages/*/src)', /\/packages\/(core|server|storage|client|redis|postgres)\/src\//],
  ['example app', /\/examples\//],
  ['provider package (@ai-sdk/anthropic)', /@ai-sdk\/anthropic|@ai-sdk\+anthropic/],
  ['provider-utils (SSE parsing, JSON parse + validation)', /@ai-sdk\/provider-utils|@ai-sdk\+provider-utils|eventsource-parser|secure-json-parse/],
  ['zod (event validation)', /\/zod\/|zod@/],
  ['AI SDK (ai)', /\/ai\/dist|\/ai@|node_modules\/ai\//],
  ['jose', /jose/],
  ['web streams (node:internal/webstreams)', /node:internal\/webstreams|internal\/webstreams/],
  ['undici (fetch)', /undici/],
  ["Node's HTTP and sockets", /node:_http|node:http|node:net|node:internal\/(stream_base_commons|http|net)|node:stream|node:internal\/streams/],
  ['other node internals', /^node:/],
];

const [file, topArg = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const owner = (n: ProfileNode) => {
  const { functionName, url } = n.callFrame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return '(program: native, not attributed)';
  if (url === '') return `native: ${functionName || '(anonymous)'}`;
  return OWNERS.find(([, re]) => re.test(url))?.[0] ?? `other: ${url.replace(/.*node_modules\//, '').split('/').slice(0, 2).join('/')}`;
};
const self = new Map<string, number>();
const fns = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  const o = owner(node);
  if (o === 'idle') return;
  total += dt;
  self.set(o, (self.get(o) ?? 0) + dt);
  const fn = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/work\/main\//, '')}:${node.callFrame.lineNumber + 1}`;
  fns.set(fn, (fns.get(fn) ?? 0) + dt);
});
const pct = (v: number) => `${((v / total) * 100).toFixed(1).padStart(5)} %`;
process.stdout.write(`busy ${(total / 1000).toFixed(0)} ms (idle excluded)\n`);
for (const [o, v] of [...self].sort((a, b) => b[1] - a[1])) process.stdout.write(`${pct(v)}  ${o}\n`);
process.stdout.write('\ntop functions (self):\n');
for (const [f, v] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) process.stdout.write(`${pct(v)}  ${f}\n`);
