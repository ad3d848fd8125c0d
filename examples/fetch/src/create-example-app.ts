import { createDemoModel, type ErrorContext } from '@chatwire/core';
import { mcpToolSourceFromEnv } from '@chatwire/mcp';
import { createChatHandler, fromEnv, type ChatHandler } from '@chatwire/server';
import type { ChatHandlerLike } from '@chatwire/server/node';
import { bundlePage } from './bundle-page.js';
import { createDevSignIn } from './create-dev-sign-in.js';
import { createExampleStore } from './create-example-store.js';
import { createExampleBlobs } from './create-example-blobs.js';
import { createSiteHandler } from './create-site-handler.js';
import { USERS } from './example-collections.js';
import { ExampleConfigError, resolveExampleAuth, type ExampleEnv } from './resolve-example-auth.js';

export { ExampleConfigError } from './resolve-example-auth.js';

export interface ExampleApp {
  /** The chatwire routes under `/api/ai`. */
  chat: ChatHandler;
  /** The page, `/config.json` and the dev sign-in: a fetch handler mounted next to `chat`. */
  site: ChatHandlerLike;
  port: number;
  /** What the example says at start-up (demo model, dev sign-in, storage). */
  notices: string[];
  close(): Promise<void>;
}

export interface ExampleAppOptions {
  /** Errors chatwire swallowed (provider failures, persistence...). Default: printed with console.error. */
  onError?: (error: unknown, context?: ErrorContext) => void;
  /** Demo model pacing (tests use 0). */
  demoChunkDelayMs?: number;
}

/** Everything the three example servers share; each of them only mounts `chat` and `site` its own way. */
export async function createExampleApp(env: ExampleEnv, options: ExampleAppOptions = {}): Promise<ExampleApp> {
  const auth = resolveExampleAuth(env);
  const config = fromEnv(auth.env, {
    fallbackModel: createDemoModel(options.demoChunkDelayMs === undefined ? {} : { chunkDelayMs: options.demoChunkDelayMs }),
  });
  const mcp = readMcpServers(env);
  const { store, storage } = await createExampleStore(env);
  const { blobs, storage: blobStorage } = await createExampleBlobs(env, store);
  const onError = options.onError ?? ((error, context) => console.error(`[chatwire] ${context?.stage ?? 'error'}:`, error));
  // Everything the environment configures (auth, models, timeouts, disconnect policy, Redis...), plus the store.
  // Share links are on here (CHATWIRE_SHARING=0 turns them off); a link opens the page's read-only view.
  const sharing = config.sharing !== false;
  const shareUrl = (token: string, url: URL): string => new URL(`/shared/${token}`, url).href;
  const chat = createChatHandler({ ...config, attachments: { ...config.attachments, blobs }, sharing, shareUrl, store, tools: { usersCollection: USERS.name, store, sources: mcp ? [mcp] : [] }, onError });
  try {
    await chat.ready();
  } catch (error) {
    await store.driver.close?.();
    await blobs.close?.();
    throw new ExampleConfigError(error instanceof Error ? error.message : String(error));
  }
  const demoModel = config.models.usesFallback();
  const site = createSiteHandler({
    assets: await bundlePage(),
    devSignIn: auth.devSecret === null ? null : createDevSignIn(auth.devSecret, store),
    config: {
      basePath: chat.basePath,
      devSignIn: auth.devSecret !== null,
      demoModel,
      defaultModelId: config.models.defaultModelId,
      models: config.models.list(),
      sharing,
    },
  });

  const notices: string[] = [`storage: ${storage}`, `attachments: ${blobStorage}`];
  if (mcp) notices.push(`MCP servers (CHATWIRE_MCP_SERVERS): ${mcp.servers.map((server) => server.name).join(', ')}`);
  if (demoModel) {
    notices.push(
      '!!! DEMO MODEL: no provider is configured (PROVIDER_A/B/C_BASE_URL or _API_KEY), so every model id is',
      '!!! answered by the built-in deterministic demo model. Try "list my notes" or "create a note titled X".',
    );
  }
  if (auth.devSecret !== null) {
    notices.push('!!! DEV SIGN-IN: no CHATWIRE_JWT_SECRET/JWKS/public key, so a random secret is used for this run');
    notices.push('!!! and POST /dev/sign-in hands out tokens to anyone. Never run like this in production.');
  }
  return {
    chat,
    site,
    port: readPort(env.PORT),
    notices,
    close: async () => {
      await chat.close();
      await store.driver.close?.();
      await blobs.close?.();
    },
  };
}

/** The MCP servers of CHATWIRE_MCP_SERVERS (null when unset); a mistake stops start-up with its message. */
function readMcpServers(env: ExampleEnv) {
  try {
    return mcpToolSourceFromEnv(env);
  } catch (error) {
    throw new ExampleConfigError(error instanceof Error ? error.message : String(error));
  }
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ExampleConfigError(`PORT must be a port number, got '${value}'`);
  return port;
}
