/**
 * Who holds the nodes of one kind in a V8 heap snapshot (a profiling helper, not a bench): samples the nodes
 * whose `type:name` key (as `heap-summary.ts` prints it) matches, walks each one's retainers (first non-weak
 * retainer at each step, up to `depth`), and prints the chains holding the most bytes:
 *   node --max-old-space-size=8192 --import tsx bench/support/heap-retainers.ts during.heapsnapshot 'concatenated string:' 8
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, wanted = 'concatenated string:', depthArg = '8', sampleArg = '2000'] = process.argv.slice(2);
const snap = JSON.parse(readFileSync(file!, 'utf8')) as Snapshot;
const { node_fields: nf, node_types: nt, edge_fields: ef, edge_types: et } = snap.snapshot.meta;
const nw = nf.length;
const ew = ef.length;
const [typeAt, nameAt, edgeCountAt, sizeAt] = ['type', 'name', 'edge_count', 'self_size'].map((f) => nf.indexOf(f)) as [number, number, number, number];
const [eTypeAt, eNameAt, eToAt] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [number, number, number];
const count = snap.nodes.length / nw;
const key = (n: number) => {
  const type = nt[0][snap.nodes[n * nw + typeAt]!]!;
  const name = ['object', 'closure', 'native', 'hidden'].includes(type) ? snap.strings[snap.nodes[n * nw + nameAt]!]!.slice(0, 60) : '';
  return `${type}:${name}`;
};
// Reverse edges: for each node, its first few non-weak retainers with the edge name.
const retainers: Array<Array<[number, string]>> = Array.from({ length: count }, () => []);
let edge = 0;
for (let n = 0; n < count; n++) {
  const edges = snap.nodes[n * nw + edgeCountAt]!;
  for (let i = 0; i < edges; i++, edge += ew) {
    const type = et[0][snap.edges[edge + eTypeAt]!]!;
    if (type === 'weak' || type === 'shortcut') continue;
    const to = snap.edges[edge + eToAt]! / nw;
    const name = type === 'element' || type === 'hidden' ? `[${snap.edges[edge + eNameAt]}]` : String(snap.strings[snap.edges[edge + eNameAt]!]);
    if (retainers[to]!.length < 3) retainers[to]!.push([n, name]);
  }
}
const depth = Number(depthArg);
const chains = new Map<string, number>();
let sampled = 0;
// Newest nodes last in the snapshot: walk backwards, so what the open streams allocated is sampled first.
for (let n = count - 1; n >= 0 && sampled < Number(sampleArg); n--) {
  if (key(n) !== wanted) continue;
  sampled++;
  const steps: string[] = [];
  let at = n;
  const seen = new Set<number>([n]);
  for (let d = 0; d < depth; d++) {
    // Skip retainers of the same kind (a cons string's parent is another cons string).
    const next = retainers[at]!.find(([r]) => !seen.has(r) && key(r) !== wanted) ?? retainers[at]!.find(([r]) => !seen.has(r));
    if (!next) break;
    const [r, name] = next;
    if (key(r) === wanted) {
      at = r;
      seen.add(r);
      d--;
      if (seen.size > 5000) break;
      continue;
    }
    steps.push(`${name} <- ${key(r)}`);
    seen.add(r);
    at = r;
  }
  const chain = steps.join(' | ');
  chains.set(chain, (chains.get(chain) ?? 0) + snap.nodes[n * nw + sizeAt]!);
}
process.stdout.write(`${sampled} nodes of ${wanted} sampled (newest first); bytes held per chain:\n`);
for (const [chain, n] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 15)) process.stdout.write(`${String(n).padStart(6)}  ${chain}\n`);
