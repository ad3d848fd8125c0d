/**
 * Compares two V8 heap snapshots (from `profile-streams.ts`): self size by node type and constructor
 * name, `after` minus `before`, divided by `per` (the number of open streams), largest first:
 *   node --max-old-space-size=8192 --import tsx bench/support/heap-summary.ts before.heapsnapshot after.heapsnapshot 200
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

function totals(file: string): Map<string, { size: number; count: number }> {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const types = snap.snapshot.meta.node_types[0];
  const out = new Map<string, { size: number; count: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    let name = type === 'object' || type === 'closure' || type === 'native' || type === 'hidden' ? snap.strings[snap.nodes[i + nameAt]!]! : '';
    if (type === 'closure') name = `closure ${name}`;
    const key = `${type}:${name.slice(0, 80)}`;
    const entry = out.get(key) ?? { size: 0, count: 0 };
    entry.size += snap.nodes[i + sizeAt]!;
    entry.count++;
    out.set(key, entry);
  }
  return out;
}

const [beforeFile, afterFile, perArg = '1', topArg = '40'] = process.argv.slice(2);
const per = Number(perArg);
const before = totals(beforeFile!);
const after = totals(afterFile!);
const rows = [...after].map(([key, a]) => {
  const b = before.get(key) ?? { size: 0, count: 0 };
  return { key, bytes: (a.size - b.size) / per, count: (a.count - b.count) / per };
});
rows.sort((x, y) => y.bytes - x.bytes);
const total = rows.reduce((s, r) => s + r.bytes, 0);
process.stdout.write(`total ${(total / 1024).toFixed(1)} KB per unit\n`);
for (const r of rows.slice(0, Number(topArg))) process.stdout.write(`${(r.bytes / 1024).toFixed(2).padStart(8)} KB ${r.count.toFixed(1).padStart(8)}  ${r.key}\n`);
