/**
 * Module hooks that run the workspace's TypeScript sources the way a built package runs: each `.ts` file is
 * compiled by esbuild's `transformSync` (types stripped, nothing added), as `tsup` compiles the published
 * packages. tsx, which the examples used before, compiles with esbuild's `keepNames`: every function and closure
 * it creates is passed through `__name(fn, "name")`, which gives each closure an own `name` property (about 9 KB
 * more heap per open stream in chatwire's turn path, bench/README.md). Registered by `register-source.mjs`:
 * in-thread with `module.registerHooks` where Node has it (22.15+), else off-thread with `module.register`
 * (`resolve`/`load`, the asynchronous form).
 *
 * - resolve: a relative `./x.js` that does not exist resolves to `./x.ts` beside it (TypeScript's ESM imports
 *   name the emitted file);
 * - load: `file:` URLs ending in `.ts`/`.mts` are compiled as ES modules, with an inline source map
 *   (`node --enable-source-maps` maps stack traces back to the sources).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

/** The `.ts` beside a relative `.js` import that was not found; anything else throws the resolve error. */
function asTypeScript(specifier, error) {
  const relative = specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('file:');
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !relative || !/\.m?js$/.test(specifier)) throw error;
  return specifier.replace(/js$/, 'ts');
}

const isTypeScript = (url) => url.startsWith('file:') && /\.m?ts$/.test(new URL(url).pathname);

function compile(url) {
  const path = fileURLToPath(url);
  const { code } = transformSync(readFileSync(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcefile: path,
  });
  return { format: 'module', source: code, shortCircuit: true };
}

export function resolveSync(specifier, context, nextResolve) {
  try {
    return nextResolve(specifier, context);
  } catch (error) {
    return nextResolve(asTypeScript(specifier, error), context);
  }
}

export function loadSync(url, context, nextLoad) {
  return isTypeScript(url) ? compile(url) : nextLoad(url, context);
}

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    return nextResolve(asTypeScript(specifier, error), context);
  }
}

export async function load(url, context, nextLoad) {
  return isTypeScript(url) ? compile(url) : nextLoad(url, context);
}
