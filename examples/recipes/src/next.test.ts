import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTsc } from './run-tsc.js';
import { overHttp, serveTurn } from './serve-turn.js';
import { startServer, type StartedServer } from './start-server.js';

type RouteHandler = (request: Request) => Promise<Response>;
interface RouteModule {
  GET: RouteHandler;
  POST: RouteHandler;
  PUT: RouteHandler;
  PATCH: RouteHandler;
  DELETE: RouteHandler;
  runtime: string;
  dynamic: string;
}

// Imported by URL so the repository's Node type-check does not follow it into the Next.js app's own tsconfig.
const route = (await import(/* @vite-ignore */ new URL('../next/app/api/ai/[...path]/route.ts', import.meta.url).href)) as RouteModule;
const secret = 'a-development-secret-of-32-bytes-or-more'; // the route's default when CHATWIRE_JWT_SECRET is unset

describe('Next.js App Router recipe (next/app)', () => {
  it('route.ts exports the one handler for every method, on Node, never cached', () => {
    // PUT is the feedback route's: without it Next.js answers 405 and rating an answer fails.
    expect([route.GET, route.POST, route.PUT, route.PATCH, route.DELETE].every((h) => h === route.GET)).toBe(true);
    expect(typeof route.GET).toBe('function');
    expect(route.runtime).toBe('nodejs');
    expect(route.dynamic).toBe('force-dynamic');
  });

  it("serves a streamed turn through the route's exports, dispatched by method as Next.js does", async () => {
    const byMethod = (request: Request) => route[request.method as 'GET' | 'POST' | 'PATCH' | 'DELETE'](request);
    const turn = await serveTurn(byMethod, 'http://localhost:3000', secret);
    expect(turn.status).toBe(200);
    expect(turn.headers.get('content-type')).toContain('text/event-stream');
    expect(turn.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(turn.text).toContain('"type":"text-delta"');
    expect(turn.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(turn.reads.length).toBeGreaterThan(2);
  }, 60_000);

  describe('type-checked with the Next.js types (next/tsconfig.json: jsx preserve, next, react 19, @ai-sdk/react)', () => {
    let diagnostics: string[] = [];
    beforeAll(async () => {
      diagnostics = await runTsc('next/tsconfig.json');
    }, 120_000);

    it('route.ts, page.tsx and layout.tsx have no type errors', () => {
      expect(diagnostics).toEqual([]);
    });
  });
});

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const nextEnv = { NEXT_TELEMETRY_DISABLED: '1', CHATWIRE_JWT_SECRET: secret };
const skipBuild = process.env.CHATWIRE_SKIP_NEXT_BUILD === '1';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });

// After the type-check above (same file, so the build's .next/types never changes under it).
describe.skipIf(skipBuild)(
  `Next.js recipe built with \`next build\` and served by \`next start\`${skipBuild ? ' (skipped: CHATWIRE_SKIP_NEXT_BUILD=1)' : ''}`,
  () => {
    let server: StartedServer;
    beforeAll(async () => {
      await new Promise<void>((resolve, reject) => {
        execFile(
          process.execPath,
          [nextBin, 'build', 'next'],
          { cwd: fileURLToPath(new URL('..', import.meta.url)), env: { ...process.env, ...nextEnv }, maxBuffer: 16 * 1024 * 1024 },
          (error, stdout, stderr) => (error ? reject(new Error(`next build failed:\n${stdout}${stderr}`)) : resolve()),
        );
      });
      const port = await freePort();
      server = await startServer(process.execPath, [nextBin, 'start', 'next', '-p', String(port), '-H', '127.0.0.1'], nextEnv);
    }, 600_000); // a production build of the app and the packages it imports: about 1.5 min here

    afterAll(() => server?.stop());

    it('serves the useChat page', async () => {
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('aria-label="Message"');
    });

    it('streams a turn through next start chunk by chunk, with the token from the dev sign-in route', async () => {
      const token = await (await fetch(`${server.url}/api/dev-token`, { method: 'POST' })).text();
      expect(token.split('.')).toHaveLength(3);
      const turn = await serveTurn(overHttp, server.url, secret);
      expect(turn.status).toBe(200);
      expect(turn.headers.get('content-type')).toContain('text/event-stream');
      expect(turn.headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(turn.headers.get('content-encoding')).toBeNull();
      expect(turn.text).toContain('"type":"text-delta"');
      expect(turn.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      expect(turn.reads.length).toBeGreaterThan(2); // not buffered by Next.js
      expect(turn.reads[0]).not.toContain('"type":"finish"');
    }, 60_000);
  },
);
