import { createChatHandler, type ChatHandler } from '@chatwire/server';
import { createDemoModel, createModelRegistry } from '@chatwire/core';

/** The Worker's bindings: `wrangler secret put CHATWIRE_JWT_SECRET`. */
export interface Env {
  CHATWIRE_JWT_SECRET: string;
}

// Bindings arrive with the first request, so the handler is built then and reused by the isolate.
let handler: ChatHandler | undefined;

export default {
  fetch(request, env) {
    handler ??= createChatHandler({
      auth: { secret: env.CHATWIRE_JWT_SECRET },
      models: createModelRegistry({ fallbackModel: createDemoModel() }),
    });
    return handler(request);
  },
} satisfies ExportedHandler<Env>;
