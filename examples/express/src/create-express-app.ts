import type { ExampleApp } from '@chatwire/example-fetch/create-example-app';
import { chatwireExpress, chatwireExpressErrors } from '@chatwire/server/express';
import express, { type Express } from 'express';

/** The express example: chatwire mounted as middleware next to the app's own routes. */
export function createExpressApp(example: ExampleApp): Express {
  const app = express();
  app.use(express.json()); // optional: chatwire reuses a body express.json() already parsed
  app.use(chatwireExpress(example.chat)); // answers /api/ai/*, calls next() for everything else
  app.use(chatwireExpressErrors(example.chat)); // a body express.json() rejected under /api/ai: chatwire's JSON error
  app.get('/healthz', (_req, res) => void res.json({ ok: true }));
  app.use(chatwireExpress(example.site)); // the example's page and dev sign-in (a fetch handler too)
  return app;
}
