/**
 * The Node flags `pnpm start` runs the example server with, read from `examples/fetch/package.json`'s `start`
 * script (`node <flags> src/server.ts`), relative paths made absolute. R2, "chatwire as shipped", runs with all
 * of them; every line's server runs its TypeScript through the same module hooks (`--import` of the example's
 * `register-source.mjs`), so no line pays a loader's wrappers the others do not.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), '../../examples/fetch');

export function exampleStartFlags(): string[] {
  const script = (JSON.parse(readFileSync(join(exampleDir, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'node' || !words.at(-1)!.endsWith('.ts')) throw new Error(`examples/fetch start script is not "node <flags> <entry>.ts": ${script}`);
  return words.slice(1, -1).map((word) => (word.startsWith('./') ? pathToFileURL(resolve(exampleDir, word)).href : word));
}

/** Only the module hooks of the start script (`--import <register-source>`), for the lines that are not chatwire. */
export function exampleSourceHooks(): string[] {
  const flags = exampleStartFlags();
  const at = flags.indexOf('--import');
  if (at < 0) throw new Error('examples/fetch start script has no --import of its module hooks');
  return flags.slice(at, at + 2);
}
