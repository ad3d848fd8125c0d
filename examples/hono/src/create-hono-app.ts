import type { ExampleApp } from '@chatwire/example-fetch/create-example-app';
import { chatwireHono } from '@chatwire/server/hono';
import { Hono } from 'hono';

/** The hono example: chatwire mounted as middleware next to the app's own routes. */
export function createHonoApp(example: ExampleApp): Hono {
  const app = new Hono();
  app.use(chatwireHono(example.chat)); // answers /api/ai/*, calls next() for everything else
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.use(chatwireHono(example.site)); // the example's page and dev sign-in (a fetch handler too)
  return app;
}
