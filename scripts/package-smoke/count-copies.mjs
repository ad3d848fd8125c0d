/**
 * `node count-copies.mjs NAME...` in an app folder: fails unless each named package is installed exactly once.
 * Reads npm's and yarn's nested node_modules (each folder is a copy) and pnpm's virtual store
 * (`node_modules/.pnpm`: each version is a copy; one version linked in several peer contexts is one copy of
 * its code). `@chatwire/*` stands for every installed @chatwire package.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const copies = new Map();
const note = (name, copy, version) => {
  const found = copies.get(name) ?? new Map();
  found.set(copy, version);
  copies.set(name, found);
};

function walk(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) { walk(join(dir, entry.name)); continue; }
    const pkg = join(dir, entry.name);
    const manifest = join(pkg, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (name) note(name, pkg, version);
    }
    walk(join(pkg, 'node_modules'));
  }
}
walk('node_modules');
const store = join('node_modules', '.pnpm');
if (existsSync(store)) {
  for (const entry of readdirSync(store)) {
    const match = /^(@[^+]+\+[^@]+|[^@]+)@([^_(]+)/.exec(entry);
    if (match) note(match[1].replace('+', '/'), `${store}/${match[1]}@${match[2]}`, match[2]);
  }
}

const names = process.argv.slice(2).flatMap((name) =>
  name === '@chatwire/*' ? [...copies.keys()].filter((n) => n.startsWith('@chatwire/')).sort() : [name],
);
let bad = false;
for (const name of names) {
  const found = copies.get(name) ?? new Map();
  if (found.size !== 1) {
    bad = true;
    console.error(`FAIL ${name}: ${found.size} copies\n  ${[...found].map(([at, v]) => `${v} ${at}`).join('\n  ')}`);
  } else console.log(`ok   ${name} ${[...found.values()][0]}`);
}
process.exit(bad ? 1 : 0);
