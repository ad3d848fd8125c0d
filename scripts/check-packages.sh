#!/usr/bin/env bash
# Pack-and-install check: what a user gets from the registry, tried in a fresh app outside the monorepo.
#  1. builds every package and packs it with `pnpm pack`, `npm pack` and `yarn pack` (yarn 1 through npx);
#  2. checks each tarball: every path its package.json names is inside it, no `workspace:` dependency;
#  3. installs the pnpm tarballs with npm next to the newest ai@5, zod, typescript and @types/node (plus the
#     optional peers of the adapter and testing entries) into a fresh app;
#  4. asserts one copy of ai, @ai-sdk/provider, zod and each @chatwire package;
#  5. type-checks (tsc --strict, no skipLibCheck) a file that imports every public entry, and a smoke app
#     (the generated vitest file alone uses skipLibCheck: vitest 3 clashes with current @types/chai);
#  6. loads every entry in Node and runs one chat turn (memory store, demo model, HS256 JWT) over node:http.
# The optional peers are installed in the majors the packages declare (express 5, hono 4, msw 2, vitest 3).
# Env: CHATWIRE_SKIP_BUILD=1 packs the dist/ already built; CHATWIRE_KEEP_TMP=1 keeps the temp dir.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/chatwire-packages.XXXXXX")"
case "$WORK/" in "$ROOT"/*) echo "temp dir $WORK is inside the monorepo" >&2; exit 1 ;; esac
cleanup() { if [ "${CHATWIRE_KEEP_TMP:-}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
started=$SECONDS
step() { echo "== [$((SECONDS - started)) s] $*"; }

cd "$ROOT"
if [ "${CHATWIRE_SKIP_BUILD:-}" != 1 ]; then
  step "build"
  pnpm -r --filter './packages/*' build >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
fi

step "pack"
mkdir -p "$WORK/pnpm" "$WORK/npm" "$WORK/yarn"
packages=()
for dir in packages/*/; do
  [ -f "$dir/package.json" ] || continue
  [ "$(node -p "require('./$dir/package.json').private === true")" = true ] && continue
  packages+=("$dir")
done
pids=()
for dir in "${packages[@]}"; do
  (cd "$dir" && pnpm pack --pack-destination "$WORK/pnpm" >/dev/null) & pids+=($!)
  (cd "$dir" && npm pack --silent --pack-destination "$WORK/npm" >/dev/null) & pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
echo "packed: ${packages[*]}"

step "tarball manifests (pnpm pack, npm pack)"
node scripts/check-packed-manifest.mjs "$WORK"/pnpm/*.tgz "$WORK"/npm/*.tgz

# yarn 1 from the registry through npx; skipped (said so) when it cannot be fetched. yarn 1 refuses to run under
# a `packageManager: pnpm` root unless SKIP_YARN_COREPACK_CHECK is set.
export SKIP_YARN_COREPACK_CHECK=1
if yarn_version="$(cd "$WORK" && timeout 120 npx --yes yarn@1 --version 2>/dev/null)"; then
  step "yarn pack (yarn $yarn_version)"
  pids=()
  for dir in "${packages[@]}"; do
    name="$(node -p "require('./$dir/package.json').name.replace('@', '').replace('/', '-')")"
    (cd "$dir" && npx --yes yarn@1 pack --silent --filename "$WORK/yarn/$name.tgz" >/dev/null) & pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  node scripts/check-packed-manifest.mjs "$WORK"/yarn/*.tgz
else
  step "yarn pack skipped: npx could not fetch yarn@1"
fi

step "fresh app: npm install the tarballs and the newest ai@5 from the registry"
app="$WORK/app"
mkdir -p "$app"
cp scripts/package-smoke/* "$app/"
cd "$app"
echo '{ "name": "chatwire-package-smoke", "private": true, "type": "module" }' >package.json
npm install --no-audit --no-fund --loglevel=error --no-package-lock \
  "$WORK"/pnpm/*.tgz 'ai@^5' zod jose typescript '@types/node@^20' \
  'express@^5' '@types/express@^5' 'hono@^4' 'msw@^2' 'vitest@^3.2.4' >"$WORK/npm-install.log" 2>&1 || { cat "$WORK/npm-install.log"; exit 1; }
echo "ai $(node -p "require('ai/package.json').version"), zod $(node -p "require('zod/package.json').version"), typescript $(node -p "require('typescript/package.json').version")"

step "one copy of each shared package"
node --input-type=module - <<'JS'
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
const copies = new Map();
function walk(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (entry.name.startsWith('@')) { walk(join(dir, entry.name)); continue; }
    const pkg = join(dir, entry.name);
    const manifest = join(pkg, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (name) copies.set(name, [...(copies.get(name) ?? []), `${version} ${pkg}`]);
    }
    walk(join(pkg, 'node_modules'));
  }
}
walk('node_modules');
const shared = ['ai', '@ai-sdk/provider', 'zod', ...[...copies.keys()].filter((n) => n.startsWith('@chatwire/'))];
let bad = false;
for (const name of shared) {
  const found = copies.get(name) ?? [];
  if (found.length !== 1) { bad = true; console.error(`FAIL ${name}: ${found.length} copies\n  ${found.join('\n  ')}`); }
  else console.log(`ok   ${name} ${found[0].split(' ')[0]}`);
}
if (bad) process.exit(1);
JS

step "tsc --strict (no skipLibCheck): every public entry and the smoke app"
node write-entry-imports.mjs
npx tsc -p tsconfig.json
npx tsc -p tsconfig.vitest.json

step "run: every entry loads (under vitest, which the testing entries need), then one turn"
npx vitest run --reporter=dot build/entries.test.js
node build/smoke.js

step "done in $((SECONDS - started)) s"
