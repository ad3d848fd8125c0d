import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');

it.each([
  'workers/index.ts',
  'wrangler.toml',
  'bun/server.ts',
  'deno/main.ts',
  'deno/deno.json',
  'next/app/api/ai/[...path]/route.ts',
  'next/app/page.tsx',
  'next/app/api/dev-token/route.ts',
])('README.md shows %s exactly as the tested file', (path) => {
  expect(readme).toContain(`\n${read(path)}\`\`\``);
});
