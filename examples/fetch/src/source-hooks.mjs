/**
 * Module hooks that run the workspace's TypeScript sources the way a built package runs: each `.ts` file is
 * compiled by esbuild's `transform` (types stripped, nothing added), as `tsup` compiles the published packages.
 * tsx, which the examples used before, compiles with esbuild's `keepNames`: every function and closure it
 * creates is passed through `__name(fn, "name")`, which gives each closure an own `name` property (about 9 KB
 * more heap per open stream in chatwire's turn path, measured in bench/README.md). Registered by
 * `register-source.mjs` (`node --import ./src/register-source.mjs --conditions=@chatwire/source src/server.ts`).
 *
 * - resolve: a relative `./x.js` that does not exist resolves to `./x.ts` beside it (TypeScript's ESM imports
 *   name the emitted file);
 * - load: `file:` URLs ending in `.ts`/`.mts` are compiled as ES modules, with an inline source map
 *   (`node --enable-source-maps` maps stack traces back to the sources).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const TS = /\.m?ts$/;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('file:');
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !relative || !/\.m?js$/.test(specifier)) throw error;
    return nextResolve(specifier.replace(/js$/, 'ts'), context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TS.test(new URL(url).pathname)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcefile: path,
  });
  return { format: 'module', source: code, shortCircuit: true };
}
