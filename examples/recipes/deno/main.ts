import { createChatHandler } from '@chatwire/server';
import { createDemoModel, createModelRegistry } from '@chatwire/core';

const handler = createChatHandler({
  auth: { secret: Deno.env.get('CHATWIRE_JWT_SECRET') ?? 'a-development-secret-of-32-bytes-or-more' },
  models: createModelRegistry({ fallbackModel: createDemoModel() }),
});
await handler.ready();

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000) }, handler);
