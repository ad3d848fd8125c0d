import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTsc } from './run-tsc.js';
import { runtimeBinary } from './runtime-binary.js';
import { overHttp, serveTurn, expectStreamedTurn } from './serve-turn.js';
import { startServer, type StartedServer } from './start-server.js';

const bun = runtimeBinary('bun');
const secret = 'bun-secret-that-is-at-least-32-bytes-long!';

describe.skipIf(!bun)(`Bun recipe (bun/server.ts) run by Bun${bun ? '' : ' (skipped: the bun npm package has no binary for this platform)'}`, () => {
  let server: StartedServer;
  beforeAll(async () => {
    server = await startServer(bun!, ['--conditions=@chatwire/source', 'bun/server.ts'], { PORT: '0', CHATWIRE_JWT_SECRET: secret });
  }, 120_000);
  afterAll(() => server?.stop());

  it('serves a turn over HTTP, streamed chunk by chunk', async () => {
    const turn = await serveTurn(overHttp, server.url, secret);
    expectStreamedTurn(turn);
  }, 60_000);
});

describe('Bun recipe type-checked against @types/bun (tsconfig.bun.json)', () => {
  let diagnostics: string[] = [];
  beforeAll(async () => {
    diagnostics = await runTsc('tsconfig.bun.json');
  }, 120_000);

  it('the recipe has no type errors', () => {
    expect(diagnostics.filter((line) => line.startsWith('bun/'))).toEqual([]);
  });

  // Under Bun's recommended `lib: ["ESNext"]` + bun-types: core's create-provider.ts assigns a plain function
  // where `typeof fetch` (which has Bun's `preconnect`) is expected, and server's with-heartbeat.ts /
  // read-json-body.ts name the DOM-only `ReadableStreamReadResult` and reader types.
  it.fails("chatwire's own sources type-check under bun-types too", () => {
    expect(diagnostics).toEqual([]);
  });
});
