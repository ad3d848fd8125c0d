import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Type level: an app's `useChat({ transport: createChatwireTransport(...) })` (test-support/use-chat-fixture.ts,
 * with every client source it imports) compiles under `tsc --strict` WITHOUT `skipLibCheck` against each AI SDK
 * major's own types: `ai` and `@ai-sdk/react` are mapped (`paths`) to the installed pair of that major, the way
 * an app of that major resolves them. The app's other types are what a React app has: `@types/node` (the SDK's
 * declarations name `Buffer` and `node:http`) and `@types/react`. `tsc` runs in a child process, one major at a
 * time, so the test worker stays responsive.
 */
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const root = join(packageDir, '../..');
const require = createRequire(import.meta.url);
const packageRoot = (name: string, from = packageDir) => dirname(require.resolve(`${name}/package.json`, { paths: [from] }));
const typesOf = (name: string) => join(packageRoot(name), 'dist/index.d.ts');
// @types/react is not a dependency of this package; the workspace has it for the recipes example.
const reactTypes = join(packageRoot('@types/react', join(root, 'examples/recipes')), 'index.d.ts');
const tsc = join(packageRoot('typescript', root), 'bin/tsc');

const MAJORS = [
  { name: 'ai@5 + @ai-sdk/react@2', ai: 'ai', react: '@ai-sdk/react' },
  { name: 'ai@6 + @ai-sdk/react@3', ai: 'ai-v6', react: 'react-v3' },
  { name: 'ai@7 + @ai-sdk/react@4', ai: 'ai-v7', react: 'react-v4' },
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chatwire-use-chat-types-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `tsc -p` on a tsconfig for `major`; resolves with its output (empty when it passed) and exit code. */
async function typecheck(major: (typeof MAJORS)[number]): Promise<{ code: number; output: string; ai: string[] }> {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      isolatedModules: true,
      verbatimModuleSyntax: true,
      noEmit: true,
      typeRoots: [join(root, 'node_modules/@types')],
      types: ['node'],
      paths: { ai: [typesOf(major.ai)], '@ai-sdk/react': [typesOf(major.react)] },
    },
    files: [join(here, 'test-support/use-chat-fixture.ts'), reactTypes],
  };
  const project = join(dir, `tsconfig.${major.ai}.json`);
  await writeFile(project, JSON.stringify(config, null, 2));
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', project, '--pretty', 'false', '--listFiles'], { maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      const lines = `${stdout}${stderr}`.split('\n').filter(Boolean);
      const listed = (line: string) => /^\/\S+\.(d\.)?[cm]?tsx?$/.test(line);
      resolve({
        code: error ? Number(error.code ?? 1) : 0,
        output: lines.filter((line) => !listed(line)).join('\n'),
        ai: lines.filter((line) => listed(line) && /\/ai(-v\d)?\/dist\/index\.d\.ts$/.test(line)),
      });
    });
  });
}

describe('createChatwireTransport type-checks with useChat of each AI SDK major (strict, no skipLibCheck)', () => {
  it.each(MAJORS)('$name', async (major) => {
    const result = await typecheck(major);
    expect(result.ai.map((f) => realpathSync(f))).toEqual([realpathSync(typesOf(major.ai))]);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 300_000);
});
