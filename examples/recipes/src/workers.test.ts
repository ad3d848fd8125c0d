import { beforeAll, describe, expect, it } from 'vitest';
import { runTsc } from './run-tsc.js';
import { serveTurn } from './serve-turn.js';

// Imported by URL so the repository's Node type-check does not follow it into Workers-only types.
const recipe = new URL('../workers/index.ts', import.meta.url).href;
const { default: worker } = (await import(/* @vite-ignore */ recipe)) as {
  default: { fetch(request: Request, env: { CHATWIRE_JWT_SECRET: string }): Promise<Response> };
};
const env = { CHATWIRE_JWT_SECRET: 'worker-secret-that-is-at-least-32-bytes!' };

describe('Cloudflare Workers recipe (workers/index.ts)', () => {
  it('serves a streamed turn through its fetch with the demo model', async () => {
    const turn = await serveTurn((request) => worker.fetch(request, env), 'https://worker.example', env.CHATWIRE_JWT_SECRET);
    expect(turn.status).toBe(200);
    expect(turn.headers.get('content-type')).toContain('text/event-stream');
    expect(turn.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(turn.text).toContain('"type":"text-delta"');
    expect(turn.text).toContain('"type":"finish"');
    expect(turn.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(turn.reads.length).toBeGreaterThan(2); // chunk by chunk, not one buffered body
    expect(turn.reads[0]).not.toContain('"type":"finish"');
  }, 60_000);

  describe('type-checked against @cloudflare/workers-types (tsconfig.workers.json)', () => {
    let diagnostics: string[] = [];
    beforeAll(async () => {
      diagnostics = await runTsc('tsconfig.workers.json');
    }, 120_000);

    it('the recipe has no type errors', () => {
      expect(diagnostics.filter((line) => line.startsWith('workers/'))).toEqual([]);
    });

    // `new TextDecoder('utf-8', { fatal: true })` in @chatwire/storage's base64url.ts: workers-types declares
    // `ignoreBOM` required in TextDecoderConstructorOptions. Passes once that call also passes `ignoreBOM: false`.
    it.fails("chatwire's own sources type-check under workers-types too", () => {
      expect(diagnostics).toEqual([]);
    });
  });
});
