import { createChatHandler } from '@chatwire/server';
import { createDemoModel, createModelRegistry } from '@chatwire/core';

const handler = createChatHandler({
  auth: { secret: process.env.CHATWIRE_JWT_SECRET ?? 'a-development-secret-of-32-bytes-or-more' },
  models: createModelRegistry({ fallbackModel: createDemoModel() }),
});
await handler.ready();

const server = Bun.serve({
  port: Number(process.env.PORT ?? 3000),
  // Bun closes a connection after 10 s without traffic by default, which would cut an event stream between
  // chatwire's keep-alive comments (every 15 s). 255 s is Bun's maximum (0 turns the timeout off).
  idleTimeout: 255,
  fetch: handler,
});
console.log(`chatwire listening on ${server.url}`);
