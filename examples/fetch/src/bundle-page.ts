import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface PageAssets {
  html: string;
  css: string;
  js: string;
}

const pageDir = fileURLToPath(new URL('./page/', import.meta.url));

/** Bundles the chat page (page/main.ts and `@chatwire/client`) with esbuild, in memory, once per start. */
export async function bundlePage(): Promise<PageAssets> {
  const [html, css, bundle] = await Promise.all([
    readFile(`${pageDir}index.html`, 'utf8'),
    readFile(`${pageDir}styles.css`, 'utf8'),
    build({
      entryPoints: [`${pageDir}main.ts`],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      // @chatwire/client resolves to its sources (the workspace's `@chatwire/source` export condition).
      conditions: ['@chatwire/source'],
      target: 'es2022',
      sourcemap: 'inline',
      logLevel: 'silent',
    }),
  ]);
  const js = bundle.outputFiles[0]?.text;
  if (js === undefined) throw new Error('esbuild produced no output for page/main.ts');
  return { html, css, js };
}
