import { createChatHandler } from '@chatwire/server';
import { createDemoModel, createModelRegistry } from '@chatwire/core';

const handler = createChatHandler({
  auth: { secret: process.env.CHATWIRE_JWT_SECRET ?? 'a-development-secret-of-32-bytes-or-more' },
  models: createModelRegistry({ fallbackModel: createDemoModel() }),
  // useChat names a new chat with its own id: the first message creates it.
  createChatOnFirstTurn: true,
});

// Every chatwire route under /api/ai goes to the one fetch handler (PUT: rating an answer). With the handler's
// `cors` option on, export it as OPTIONS too, so it answers the preflights.
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };

// Streams run on Node (the handler keeps running turns in this process) and are never cached.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
