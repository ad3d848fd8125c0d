/**
 * The packages a user's own app would depend on, loaded from the workspace packages that already depend
 * on them (the bench has no dependencies of its own): `@ai-sdk/anthropic` (core's version) and `jose`
 * (the example server's version).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export { createAnthropic } from '../../packages/core/node_modules/@ai-sdk/anthropic/dist/index.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Jose {
  jwtVerify(token: string, key: Uint8Array, options?: { algorithms?: string[] }): Promise<{ payload: { sub?: string } }>;
}

/** jose's `jwtVerify` (what a bare app verifies an HS256 token with). */
export async function loadJose(): Promise<Jose> {
  const require = createRequire(join(root, 'examples', 'fetch', 'package.json'));
  return (await import(pathToFileURL(require.resolve('jose')).href)) as Jose;
}
