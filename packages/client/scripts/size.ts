/**
 * Bundle size of @chatwire/client: `src/index.ts` bundled by esbuild (ESM, minified, browser platform, every
 * import bundled, nothing external), then gzipped with zlib level 9.
 * Run: `cd /work/main && npx tsx packages/client/scripts/size.ts`
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// esbuild is not a direct dependency: take the copy tsup (a root dev dependency) uses.
const requireFromTsup = createRequire(createRequire(import.meta.url).resolve('tsup'));
const esbuild = requireFromTsup('esbuild') as { build(options: object): Promise<BuildResult> };

/** The part of esbuild's result used here (esbuild's own types are not resolvable from this package). */
interface BuildResult {
  outputFiles: Array<{ contents: Uint8Array; text: string }>;
  metafile: { outputs: Record<string, { imports: Array<{ path: string }> }> };
}

export interface BundleReport {
  minifiedBytes: number;
  gzipBytes: number;
  /** Imports left in the bundle (must be empty: no runtime dependency, not even `ai`). */
  imports: string[];
  code: string;
}

export async function measureBundle(): Promise<BundleReport> {
  const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
  });
  const output = result.outputFiles[0]!;
  const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
  return {
    minifiedBytes: output.contents.byteLength,
    gzipBytes: gzipSync(output.contents, { level: 9 }).byteLength,
    imports,
    code: output.text,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await measureBundle();
  process.stdout.write(
    `@chatwire/client: ${(r.minifiedBytes / 1024).toFixed(1)} KiB minified, ${(r.gzipBytes / 1024).toFixed(2)} KiB min+gzip ` +
      `(${r.gzipBytes} bytes); runtime imports: ${r.imports.length === 0 ? 'none' : r.imports.join(', ')}\n`,
  );
}
