import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { load, loadSync } from './source-hooks.mjs';
import { runExampleSmoke } from './testing/example-smoke.js';

const exampleDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const startScript = (JSON.parse(readFileSync(join(exampleDir, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;

describe('pnpm start (the example server as shipped)', () => {
  it('runs the start script with this Node: it listens, serves the page, signs in, runs chats, and stops on SIGTERM', async () => {
    const [command, ...args] = startScript.split(/\s+/);
    expect(command).toBe('node');
    const child = spawn(process.execPath, args, { cwd: exampleDir, env: { ...process.env, PORT: '0', NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /listening on http:\/\/localhost:(\d+)/.exec(output);
        if (found) resolve(Number(found[1]));
      });
      child.once('exit', (code) => reject(new Error(`start exited with ${code}: ${output}`)));
    });
    try {
      await runExampleSmoke(`http://127.0.0.1:${port}`);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 60_000);

  it("compiles TypeScript without esbuild's keepNames wrappers (each closure would get an own name property)", async () => {
    const url = pathToFileURL(join(exampleDir, 'src/listen-node.ts')).href;
    const next = () => Promise.reject(new Error('not a TypeScript file'));
    for (const compiled of [await load(url, {}, next), loadSync(url, {}, next)]) {
      const { format, source } = compiled as { format: string; source: string };
      expect(format).toBe('module');
      expect(source).toMatch(/function listenNode\(server, port\)[\s\S]*export {/);
      expect(source).not.toMatch(/__name\(/);
      expect(source).not.toMatch(/:\s*Promise<RunningServer>/);
    }
  });
});
