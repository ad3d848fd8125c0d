import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The executable that the `bun` / `deno` npm package installed as its platform's optional dependency, found
 * without their postinstall scripts (pnpm does not run them unless allowed); null on other platforms.
 */
export function runtimeBinary(runtime: 'bun' | 'deno'): string | null {
  const platform = `${process.platform}-${process.arch}`;
  const [binaryPackage, file] =
    runtime === 'bun'
      ? [`@oven/bun-${platform}`, 'bin/bun']
      : [`@deno/${platform === 'linux-x64' ? 'linux-x64-glibc' : platform === 'linux-arm64' ? 'linux-arm64-glibc' : platform}`, 'deno'];
  try {
    const fromRuntime = createRequire(require.resolve(`${runtime}/package.json`));
    const path = join(dirname(fromRuntime.resolve(`${binaryPackage}/package.json`)), file);
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}
