/**
 * `node check-packed-manifest.mjs <package.tgz>...`: checks what a packed package promises.
 * - Every path its package.json names (each `exports` target under every condition, `main`, `types`, `bin`)
 *   is a file inside the tarball. That includes the monorepo's `@chatwire/source` condition: the packages ship
 *   their sources (tests and test support left out), so a tool that enables the condition finds them.
 * - Every source file reachable from such a target through relative imports is in the tarball too (a source
 *   entry that imports a left-out file would break whoever enables the condition).
 * - No dependency uses the `workspace:` protocol; LICENSE and README.md are shipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';

let failures = 0;

function targets(value, where, out) {
  if (typeof value === 'string') out.push([where, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => targets(v, `${where}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) targets(v, key.startsWith('.') ? `${where}["${key}"]` : `${where}.${key}`, out);
  }
  return out;
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The tarball file a relative specifier of a TypeScript source names (`./x.js` is `./x.ts`), or undefined. */
function resolveSource(files, from, specifier) {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const stem = base.replace(/\.(js|mjs|cjs)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}/index.ts`];
  return candidates.find((candidate) => files.has(candidate));
}

/** Problems of the sources reachable from `entry` through relative imports. */
function missingSources(unpacked, files, entry) {
  const problems = [];
  const seen = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file) || !/\.(ts|tsx|mts)$/.test(file)) continue;
    seen.add(file);
    const text = readFileSync(join(unpacked, file), 'utf8');
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
      const found = resolveSource(files, file, specifier);
      if (found) queue.push(found);
      else problems.push(`${file} imports ${specifier}, which is not in the tarball`);
    }
  }
  return problems;
}

for (const tarball of process.argv.slice(2)) {
  const files = new Set(
    execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.endsWith('/'))
      .map((f) => f.replace(/^[^/]+\//, '')),
  );
  const unpacked = mkdtempSync(join(tmpdir(), 'chatwire-tarball-'));
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
  const problems = [];
  const paths = targets(manifest.exports, 'exports', []);
  if (manifest.main) paths.push(['main', manifest.main]);
  if (manifest.types) paths.push(['types', manifest.types]);
  paths.push(...targets(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin, 'bin', []));
  let sources = 0;
  for (const [where, target] of paths) {
    if (target.includes('*')) {
      problems.push(`${where} -> ${target}: a pattern target cannot be checked; name each file`);
      continue;
    }
    const file = posix.normalize(target.replace(/^\.\//, ''));
    if (file.startsWith('..') || !files.has(file)) {
      problems.push(`${where} -> ${target} is not in the tarball`);
      continue;
    }
    if (/\.(ts|tsx|mts)$/.test(file) && !file.endsWith('.d.ts')) {
      sources += 1;
      problems.push(...missingSources(unpacked, files, file));
    }
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${field}.${name} is ${range}`);
    }
  }
  rmSync(unpacked, { recursive: true, force: true });
  if (!files.has('LICENSE')) problems.push('no LICENSE');
  if (!files.has('README.md')) problems.push('no README.md');
  if (problems.length > 0) {
    failures += 1;
    console.error(`FAIL ${tarball}\n  ${[...new Set(problems)].join('\n  ')}`);
  } else {
    console.log(`ok   ${tarball.split('/').pop()} (${paths.length} paths, ${sources} source entries, ${files.size} files)`);
  }
}
process.exit(failures === 0 ? 0 : 1);
