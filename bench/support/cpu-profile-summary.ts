/**
 * Self time of a `.cpuprofile` (from `profile-real-path.ts` or `node --cpu-prof`) grouped by who owns the
 * code: chatwire's packages, the provider package and its helpers, the AI SDK, zod, web streams, undici,
 * Node's HTTP and sockets, other Node internals, GC, idle (a profiling helper, not a bench):
 *   node --import tsx bench/support/cpu-profile-summary.ts /tmp/real-r2.cpuprofile [top functions]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Owner by the package the file is in (the last `node_modules/<package>/` of its path), else by path. */
const PACKAGES: Record<string, string> = {
  '@ai-sdk/anthropic': 'provider package (@ai-sdk/anthropic)',
  '@ai-sdk/provider-utils': 'provider-utils (SSE parsing, JSON parse + validation)',
  'eventsource-parser': 'provider-utils (SSE parsing, JSON parse + validation)',
  'secure-json-parse': 'provider-utils (SSE parsing, JSON parse + validation)',
  zod: 'zod (event validation)',
  ai: 'AI SDK (ai)',
  jose: 'jose',
};
const OWNERS: Array<[string, RegExp]> = [
  ['chatwire (packages/*/src)', /\/packages\/(core|server|storage|client|redis|postgres)\/src\//],
  ['example app', /\/examples\//],
  ['web streams (node:internal/webstreams)', /node:internal\/webstreams|internal\/webstreams/],
  ['undici (fetch)', /undici/],
  ["Node's HTTP and sockets", /node:_http|node:http|node:net|node:internal\/(stream_base_commons|http|net)|node:stream|node:internal\/streams/],
  ['other node internals', /^node:/],
];
const packageOf = (url: string) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];

const [file, topArg = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const owner = (n: ProfileNode) => {
  const { functionName, url } = n.callFrame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return '(program: native, not attributed)';
  if (url === '') return `native: ${functionName || '(anonymous)'}`;
  const pkg = packageOf(url);
  if (pkg !== undefined && !url.includes('/packages/')) return PACKAGES[pkg] ?? `other: ${pkg}`;
  return OWNERS.find(([, re]) => re.test(url))?.[0] ?? `other: ${pkg ?? url}`;
};
const parent = new Map<number, ProfileNode>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
/** For node-internal frames (web streams, sockets...): the owner of the nearest caller outside Node's own code. */
const driver = (n: ProfileNode): string => {
  for (let at: ProfileNode | undefined = n; at; at = parent.get(at.id)) {
    const o = owner(at);
    if (!o.startsWith('web streams') && !o.startsWith('other node') && !o.startsWith("Node's") && !o.startsWith('native') && !o.startsWith('(program')) return o;
  }
  return 'no JS caller (I/O callbacks, microtasks)';
};
const driven = new Map<string, number>();
const self = new Map<string, number>();
const fns = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  const o = owner(node);
  // The first sample of an in-process profile (inspector `dispatch`) spans the profiler's own start-up.
  if (o === 'idle' || dt > 50_000) return;
  total += dt;
  self.set(o, (self.get(o) ?? 0) + dt);
  if (o.startsWith('web streams')) driven.set(driver(node), (driven.get(driver(node)) ?? 0) + dt);
  const fn = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/work\/main\//, '')}:${node.callFrame.lineNumber + 1}`;
  fns.set(fn, (fns.get(fn) ?? 0) + dt);
});
const pct = (v: number) => `${((v / total) * 100).toFixed(1).padStart(5)} %`;
process.stdout.write(`busy ${(total / 1000).toFixed(0)} ms (idle excluded)\n`);
for (const [o, v] of [...self].sort((a, b) => b[1] - a[1])) process.stdout.write(`${pct(v)}  ${o}\n`);
process.stdout.write('\nweb streams time by the code that drove it (nearest caller outside Node):\n');
for (const [o, v] of [...driven].sort((a, b) => b[1] - a[1])) process.stdout.write(`${pct(v)}  ${o}\n`);
process.stdout.write('\ntop functions (self):\n');
for (const [f, v] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) process.stdout.write(`${pct(v)}  ${f}\n`);
