import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeBinary } from './runtime-binary.js';
import { overHttp, serveTurn, expectStreamedTurn } from './serve-turn.js';
import { startServer, type StartedServer } from './start-server.js';

const deno = runtimeBinary('deno');
const secret = 'deno-secret-that-is-at-least-32-bytes-long!';
const cwd = fileURLToPath(new URL('..', import.meta.url));
const env = { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
// In this repository the recipe imports chatwire from the workspace (package.json + node_modules, sources through
// the `@chatwire/source` condition) instead of deno/deno.json's npm: map of the published packages.
const inRepo = ['--config', 'deno.repo.json', '--conditions=@chatwire/source'];
// Deno rewrites a package.json next to a pnpm-workspace.yaml it finds; the repository's must stay as it is.
const rootPackageJson = new URL('../../../package.json', import.meta.url);

describe.skipIf(!deno)(`Deno recipe (deno/main.ts) run by Deno${deno ? '' : ' (skipped: the deno npm package has no binary for this platform)'}`, () => {
  const rootBefore = readFileSync(rootPackageJson, 'utf8');
  afterAll(() => {
    const rootAfter = readFileSync(rootPackageJson, 'utf8');
    if (rootAfter !== rootBefore) writeFileSync(rootPackageJson, rootBefore);
    expect(rootAfter, 'deno changed the root package.json').toBe(rootBefore);
  });

  it('type-checks with `deno check` (Deno types, chatwire sources included)', async () => {
    const output = await new Promise<string>((resolve) => {
      execFile(deno!, ['check', ...inRepo, 'deno/main.ts'], { cwd, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
        resolve(`${error ? `exit ${error.code}\n` : ''}${stdout}${stderr}`),
      );
    });
    expect(output).not.toMatch(/exit|error/i);
  }, 120_000);

  describe('served', () => {
    let server: StartedServer;
    beforeAll(async () => {
      const permissions = ['--allow-net', '--allow-env', '--allow-read', '--allow-sys'];
      server = await startServer(deno!, ['run', ...permissions, ...inRepo, 'deno/main.ts'], { ...env, PORT: '0', CHATWIRE_JWT_SECRET: secret });
    }, 120_000);
    afterAll(() => server?.stop());

    it('serves a turn over HTTP, streamed chunk by chunk', async () => {
      const turn = await serveTurn(overHttp, server.url, secret);
      expectStreamedTurn(turn);
    }, 60_000);
  });
});
