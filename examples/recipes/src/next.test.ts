import { beforeAll, describe, expect, it } from 'vitest';
import { runTsc } from './run-tsc.js';
import { serveTurn } from './serve-turn.js';

type RouteHandler = (request: Request) => Promise<Response>;
interface RouteModule {
  GET: RouteHandler;
  POST: RouteHandler;
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
    expect([route.GET, route.POST, route.PATCH, route.DELETE].every((h) => h === route.GET)).toBe(true);
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
