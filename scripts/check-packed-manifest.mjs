/**
 * `node check-packed-manifest.mjs <package.tgz>...`: checks what a packed package promises. Every path its
 * package.json names (each `exports` target, `main`, `types`, `bin`) is a file inside the tarball, and no
 * dependency uses the `workspace:` protocol. The `@chatwire/source` condition is the monorepo's own
 * (it points at sources that are not shipped) and no tool enables it by default, so it is not checked.
 */
import { execFileSync } from 'node:child_process';

const WORKSPACE_CONDITION = '@chatwire/source';
let failures = 0;

function targets(value, where, out) {
  if (typeof value === 'string') out.push([where, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => targets(v, `${where}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key !== WORKSPACE_CONDITION) targets(v, `${where}.${key}`, out);
    }
  }
  return out;
}

for (const tarball of process.argv.slice(2)) {
  const files = new Set(
    execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^[^/]+\//, '')),
  );
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
  const problems = [];
  const paths = targets(manifest.exports, 'exports', []);
  if (manifest.main) paths.push(['main', manifest.main]);
  if (manifest.types) paths.push(['types', manifest.types]);
  paths.push(...targets(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin, 'bin', []));
  for (const [where, target] of paths) {
    if (target.includes('*')) continue;
    if (!files.has(target.replace(/^\.\//, ''))) problems.push(`${where} -> ${target} is not in the tarball`);
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:')) problems.push(`${field}.${name} is ${range}`);
    }
  }
  if (!files.has('LICENSE')) problems.push('no LICENSE');
  if (!files.has('README.md')) problems.push('no README.md');
  if (problems.length > 0) {
    failures += 1;
    console.error(`FAIL ${tarball}\n  ${problems.join('\n  ')}`);
  } else {
    console.log(`ok   ${tarball.split('/').pop()} (${paths.length} paths, ${files.size} files)`);
  }
}
process.exit(failures === 0 ? 0 : 1);
