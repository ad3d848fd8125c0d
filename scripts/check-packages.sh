#!/usr/bin/env bash
# Pack-and-install check: what a user gets from the registry, tried in fresh apps outside the monorepo.
#  1. builds every package and packs it with `pnpm pack`, `npm pack` and `yarn pack` (yarn 1 through npx);
#  2. checks each tarball: every exports target (every condition) and every path its package.json names is
#     inside it, with the sources those targets import; no `workspace:` dependency; then publint and
#     @arethetypeswrong/cli on each;
#  3. installs the pnpm tarballs with npm next to the newest ai@5, zod, typescript and @types/node (plus the
#     optional peers of the adapter and testing entries) into a fresh app;
#  4. asserts one copy of ai, @ai-sdk/provider, zod and each @chatwire package;
#  5. type-checks (tsc --strict, no skipLibCheck) a file that imports every public entry, and a smoke app
#     (the generated vitest file alone uses skipLibCheck: vitest 3 clashes with current @types/chai);
#  6. loads every entry in Node and runs one chat turn (memory store, demo model, HS256 JWT) over node:http;
#  7. one fresh app per AI SDK major (package-smoke/check-major-app.sh): ai@5 (newest, and one pinning the
#     oldest 5.x patch chatwire supports), ai@6 and ai@7 (on Node 24: ai@7 needs 22+), each installed with npm,
#     pnpm and yarn without a flag or a peer warning, type-checked, and serving a turn with its own model
#     driven by its own `Chat`.
# The optional peers are installed in the majors the packages declare (express 5, hono 4, msw 2, vitest 3,
# @aws-sdk/client-s3 3).
# Env: CHATWIRE_SKIP_BUILD=1 packs the dist/ already built; CHATWIRE_KEEP_TMP=1 keeps the temp dir;
# CHATWIRE_AI_MAJORS="v5 v6" checks only those per-major apps (default: all of them).
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
  # A package git does not track yet (someone's work in progress in this checkout) is not in a clone: skip it.
  if ! git ls-files --error-unmatch "$dir/package.json" >/dev/null 2>&1; then echo "skipped (not in git): $dir"; continue; fi
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

# publint and @arethetypeswrong/cli (both from the root devDependencies) on a tarball. attw runs the
# `esm-only` profile: the packages are ESM only on purpose ("type": "module", no `require` condition, Node 20+
# loads them with `import` and `require(esm)`), so node10 and node16-from-CJS resolution are not asked for;
# every other problem fails.
lint_tarballs() {
  for tarball in "$@"; do
    if ! "$ROOT/node_modules/.bin/publint" run --strict "$tarball" >"$WORK/publint.log" 2>&1; then
      cat "$WORK/publint.log"; echo "FAIL publint $tarball" >&2; exit 1
    fi
    if ! "$ROOT/node_modules/.bin/attw" --profile esm-only --format ascii --no-color --no-emoji "$tarball" >"$WORK/attw.log" 2>&1; then
      cat "$WORK/attw.log"; echo "FAIL attw $tarball" >&2; exit 1
    fi
    echo "ok   publint, attw: ${tarball#"$WORK"/}"
  done
}
step "publint and attw (pnpm pack, npm pack)"
lint_tarballs "$WORK"/pnpm/*.tgz "$WORK"/npm/*.tgz

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
  lint_tarballs "$WORK"/yarn/*.tgz
else
  step "yarn pack skipped: npx could not fetch yarn@1"
fi

step "fresh app: npm install the tarballs and the newest ai@5 from the registry"
app="$WORK/app"
mkdir -p "$app"
cp scripts/package-smoke/{smoke.ts,tsconfig.json,tsconfig.vitest.json,write-entry-imports.mjs} "$app/"
cd "$app"
echo '{ "name": "chatwire-package-smoke", "private": true, "type": "module" }' >package.json
npm install --no-audit --no-fund --loglevel=error --no-package-lock \
  "$WORK"/pnpm/*.tgz 'ai@^5' zod jose typescript '@types/node@^20' \
  'express@^5' '@types/express@^5' 'hono@^4' 'msw@^2' 'vitest@^3.2.4' '@aws-sdk/client-s3@^3' >"$WORK/npm-install.log" 2>&1 || { cat "$WORK/npm-install.log"; exit 1; }
echo "ai $(node -p "require('ai/package.json').version"), zod $(node -p "require('zod/package.json').version"), typescript $(node -p "require('typescript/package.json').version")"

step "one copy of each shared package"
node "$ROOT/scripts/package-smoke/count-copies.mjs" ai @ai-sdk/provider zod '@chatwire/*'

step "tsc --strict (no skipLibCheck): every public entry and the smoke app"
node write-entry-imports.mjs
npx tsc -p tsconfig.json
npx tsc -p tsconfig.vitest.json

step "run: every entry loads (under vitest, which the testing entries need), then one turn"
npx vitest run --reporter=dot build/entries.test.js
node build/smoke.js

# One app per AI SDK major: LABEL AI REACT OPENAI_COMPATIBLE NODE_LINE. `v5-oldest` pins the floor of
# @chatwire/core's `ai` range (^5.0.92) with its matching @ai-sdk/react, so ranges, not pins, keep one `ai`.
majors=(
  "v5 ^5 ^2 ^1 -"
  "v5-oldest 5.0.92 2.0.92 ^1 -"
  "v6 ^6 ^3 ^2 -"
  "v7 ^7 ^4 ^3 24"
)
for entry in "${majors[@]}"; do
  read -r label ai react compatible node_line <<<"$entry"
  case " ${CHATWIRE_AI_MAJORS:-$label} " in *" $label "*) ;; *) continue ;; esac
  step "fresh app $label"
  bash "$ROOT/scripts/package-smoke/check-major-app.sh" "$label" "$ai" "$react" "$compatible" "${node_line#-}" "$WORK/pnpm" "$WORK"
done

step "done in $((SECONDS - started)) s"
