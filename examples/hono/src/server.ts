import { serve } from '@hono/node-server';
import { runExample } from '@chatwire/example-fetch/run-example';
import { createHonoApp } from './create-hono-app.js';

// @hono/node-server aborts c.req.raw.signal when the client disconnects, which stops the model call.
await runExample(
  (example) =>
    new Promise((resolve) => {
      const server = serve({ fetch: createHonoApp(example).fetch, port: example.port }, (info) =>
        resolve({
          port: info.port,
          close: () => new Promise((done) => server.close(() => done())),
        }),
      );
    }),
);
