import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface PageAssets {
  html: string;
  css: string;
  js: string;
  /** The read-only view of a shared chat (`/shared/<token>`) and its script. */
  sharedHtml: string;
  sharedJs: string;
}

const pageDir = fileURLToPath(new URL('./page/', import.meta.url));

/** Bundles the chat page (page/main.ts and `@chatwire/client`) with esbuild, in memory, once per start. */
export async function bundlePage(): Promise<PageAssets> {
  const [html, css, sharedHtml, bundle] = await Promise.all([
    readFile(`${pageDir}index.html`, 'utf8'),
    readFile(`${pageDir}styles.css`, 'utf8'),
    readFile(`${pageDir}shared.html`, 'utf8'),
    build({
      entryPoints: [`${pageDir}main.ts`, `${pageDir}shared-view.ts`],
      outdir: 'page-bundle',
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
  const output = (name: string): string => {
    const file = bundle.outputFiles.find((f) => f.path.endsWith(`/page-bundle/${name}.js`));
    if (file === undefined) throw new Error(`esbuild produced no output for page/${name}.ts`);
    return file.text;
  };
  return { html, css, js: output('main'), sharedHtml, sharedJs: output('shared-view') };
}
