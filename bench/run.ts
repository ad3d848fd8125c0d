/**
 * `pnpm bench`: runs every `bench/*.bench.ts` (or those named on the command line) one after another,
 * prints one table, and writes the raw rows to `bench/results/<timestamp>.json`. Flags (`--quick`: shorter
 * runs where a bench supports it) are read by the benches themselves and never select files.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import os from 'node:os';
import type { BenchModule, BenchRow } from './bench-row.js';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = (await readdir(here))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const rows: BenchRow[] = [];
for (const file of files) {
  const started = Date.now();
  process.stdout.write(`running ${file} ... `);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: BenchModule };
  const produced = await mod.default();
  rows.push(...produced);
  process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3));
const lines = [
  `| group | measure | value | ratio | goal |`,
  `|---|---|---|---|---|`,
  ...rows.map(
    (r) =>
      `| ${r.group} | ${r.name} | ${fmt(r.value)} ${r.unit} | ${r.ratio ? `${fmt(r.ratio.value)}x ${r.ratio.against}` : ''} | ${
        r.goal ? `${r.goal} ${r.met === undefined ? '' : r.met ? '(met)' : '(NOT met)'}` : ''
      } |`,
  ),
];
const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
process.stdout.write(`\n${machine}\n\n${lines.join('\n')}\n`);

const out = join(here, 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify({ machine, date: new Date().toISOString(), rows }, null, 2));
process.stdout.write(`\nraw results: ${out}\n`);
