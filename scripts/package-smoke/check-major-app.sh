#!/usr/bin/env bash
# One fresh app per AI SDK major, outside the monorepo, as a new user would make it (called by
# scripts/check-packages.sh):
#   check-major-app.sh LABEL AI REACT OPENAI_COMPATIBLE NODE_LINE TARBALL_DIR WORK_DIR
# e.g. `check-major-app.sh v6 '^6' '^3' '^2' '' "$WORK/pnpm" "$WORK"`. NODE_LINE (e.g. 24) runs every step of
# this app (installs, tsc, the turn) on that Node line from the registry's `node` package; empty: this Node.
#  1. npm installs the packed tarballs with that ai / @ai-sdk/react / @ai-sdk/openai-compatible, react, zod,
#     jose, typescript: no flag, and any ERESOLVE or peer warning in the log fails the check;
#  2. exactly one copy of zod and of each @chatwire package (and, on ai@5, of ai: chatwire's own `ai` range
#     takes the app's copy, whichever 5.x patch the app pins);
#  3. pnpm and yarn 1 install the same app without a peer warning, with one copy of zod (and ai on ai@5);
#  4. tsc --strict, no skipLibCheck, in the npm app: a handler with the app's own model of that major, and
#     `useChat` of that major with chatwire's transport (major-app.ts);
#  5. runs major-app.ts: that major's `Chat` submits, then regenerates, through the transport, against the
#     handler over node:http and the own model against a loopback chat-completions server.
set -euo pipefail
label="$1" ai="$2" react="$3" compatible="$4" node_line="$5" tarballs="$6" work="$7"
here="$(cd "$(dirname "$0")" && pwd)"
started=$SECONDS
step() { echo "== [$label, $((SECONDS - started)) s] $*"; }

if [ -n "$node_line" ]; then
  node_bin="$(npx --yes -p "node@$node_line" node -p "require('node:path').dirname(process.execPath)")"
  export PATH="$node_bin:$PATH"
fi
shared=(zod '@chatwire/*')
case "$ai" in ^5* | 5.*) shared+=(ai) ;; esac

# The app's package.json: the tarballs as dependencies, and each also pinned for the tarballs' own
# `@chatwire/*: ^0.1.0` dependencies (pnpm `overrides`, yarn `resolutions`; npm dedupes to the app's copy).
# `write_manifest PIN` also pins `ai` for yarn: yarn 1 never dedupes a range (@chatwire/core's `ai: ^5.0.92`)
# against another pinned version of the app, so an app that pins a 5.x patch adds that resolution itself.
write_manifest() {
  node --input-type=module - "$tarballs" "$ai" "$react" "$compatible" "${1:-}" >package.json <<'JS'
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
const [tarballs, ai, react, compatible, pinAi] = process.argv.slice(2);
// Relative paths: yarn 1 rewrites an absolute `file:` dependency to a relative one, and would then see the
// resolution (absolute) as another pattern of the same package.
const chatwire = Object.fromEntries(
  readdirSync(tarballs).filter((f) => f.endsWith('.tgz')).sort()
    .map((f) => [`@chatwire/${f.replace(/^chatwire-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '')}`, `file:${relative(process.cwd(), join(tarballs, f))}`]),
);
const dependencies = {
  ...chatwire, ai, '@ai-sdk/react': react, '@ai-sdk/openai-compatible': compatible,
  react: '^19', zod: '^4.1.8', jose: '^6.1.0', typescript: '~5.9.3', '@types/node': '^22', '@types/react': '^19',
};
const manifest = { name: 'chatwire-major-app', private: true, type: 'module', dependencies, pnpm: { overrides: chatwire }, resolutions: chatwire };
if (pinAi) manifest.resolutions.ai = pinAi;
console.log(JSON.stringify(manifest, null, 2));
JS
}

# Fails on an install error, or on any peer complaint (npm ERESOLVE / "peer", pnpm's peer issues, yarn's
# "unmet peer dependency" / "incorrect peer dependency").
install_clean() {
  local log="$1"; shift
  if ! "$@" >"$log" 2>&1; then cat "$log"; echo "FAIL $label: $* failed" >&2; exit 1; fi
  # npm's "Unknown env config" warnings name the npm_config_* settings `pnpm run` exports (auto-install-peers...):
  # they come from the script's runner, not from the app's dependencies.
  if grep -Ei 'ERESOLVE|peer' "$log" | grep -Evi 'Unknown env config'; then echo "FAIL $label: peer warnings in $*" >&2; exit 1; fi
}

app="$work/app-$label"
step "npm: ai@$ai, @ai-sdk/react@$react, @ai-sdk/openai-compatible@$compatible on node $(node --version)"
mkdir -p "$app" && cd "$app"
write_manifest
install_clean "$work/$label-npm.log" npm install --no-audit --no-fund --loglevel=warn
echo "ai $(node -p "require('ai/package.json').version"), @ai-sdk/react $(node -p "require('@ai-sdk/react/package.json').version"), @ai-sdk/openai-compatible $(node -p "require('@ai-sdk/openai-compatible/package.json').version")"
node "$here/count-copies.mjs" "${shared[@]}"

step "pnpm install"
mkdir -p "$app-pnpm" && cd "$app-pnpm"
write_manifest
install_clean "$work/$label-pnpm.log" pnpm install
node "$here/count-copies.mjs" "${shared[@]}"

step "yarn 1 install"
mkdir -p "$app-yarn" && cd "$app-yarn"
case "$ai" in [0-9]*) write_manifest "$ai" ;; *) write_manifest ;; esac
install_clean "$work/$label-yarn.log" npx --yes yarn@1 install --non-interactive --cache-folder "$work/yarn-cache"
node "$here/count-copies.mjs" "${shared[@]}"
cd "$app"
step "tsc --strict (no skipLibCheck): own model of this major, useChat with the transport"
cp "$here/major-app.ts" "$here/loopback-provider.ts" "$here/tsconfig.major.json" .
npx tsc -p tsconfig.major.json

step "turn: Chat submit, then regenerate, own model against the loopback provider"
node build/major-app.js

step "done"
