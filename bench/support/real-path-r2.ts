/**
 * R2 of the real-path benches: chatwire as shipped. `r2`: the example server of `pnpm start`
 * (`createExampleApp` from the environment + `createNodeServer`: memory store, HS256 JWT, the example's
 * tools and collections, default compaction and timeouts) with `PROVIDER_A_BASE_URL` pointed at the loopback
 * provider, so every turn goes through chatwire's provider factory and the real `@ai-sdk/anthropic`
 * package over HTTP (gateway mode: the caller's JWT is the provider's bearer token). `r2pg` (the scale-out
 * row): the same handler options from the same environment, on PostgreSQL (`CHATWIRE_TEST_DATABASE_URL`,
 * a table prefix of the bench's own) with the Redis hub on (`CHATWIRE_TEST_REDIS_URL`, a key prefix of its own).
 */
import { createChatHandler, fromEnv } from '@chatwire/server';
import { createRecordStore } from '@chatwire/storage';
import { createExampleApp } from '../../examples/fetch/src/create-example-app.js';
import { createNodeServer } from '../../examples/fetch/src/create-node-server.js';
import { NOTES, USERS } from '../../examples/fetch/src/example-collections.js';
import { LIST_CHATS, LIST_USER, REAL_QUESTION, REAL_SECRET, type RealLine } from './real-path-line.js';
import { signHs256 } from './sign-hs256.js';

const USER = 'bench-user';

export async function createR2Line(providerPort: number, shared?: { databaseUrl: string; redisUrl: string; prefix: string }): Promise<RealLine> {
  const env = {
    CHATWIRE_JWT_SECRET: REAL_SECRET,
    PROVIDER_A_BASE_URL: `http://127.0.0.1:${providerPort}/v1`,
    PORT: '0',
    NODE_ENV: 'production',
    // CHATWIRE_PROVIDER_FAST_PATH=0 in the bench's environment: R2 reads provider_a's streams with the package.
    ...(process.env.CHATWIRE_PROVIDER_FAST_PATH === undefined ? {} : { CHATWIRE_PROVIDER_FAST_PATH: process.env.CHATWIRE_PROVIDER_FAST_PATH }),
  };
  const errors: unknown[] = [];
  const onError = (error: unknown) => void errors.push(error);
  let app: Awaited<ReturnType<typeof createExampleApp>>;
  if (shared === undefined) {
    app = await createExampleApp(env, { onError });
  } else {
    const { createPostgresDriver } = await import('@chatwire/postgres');
    const driver = createPostgresDriver({ connectionString: shared.databaseUrl, tablePrefix: `${shared.prefix}_` });
    const store = createRecordStore({ driver, collections: [NOTES, USERS] });
    const chat = createChatHandler({
      ...fromEnv({ ...env, CHATWIRE_REDIS_URL: shared.redisUrl }),
      redis: { url: shared.redisUrl, keyPrefix: `${shared.prefix}:` },
      store,
      tools: { usersCollection: USERS.name, store },
      onError,
    });
    await chat.ready();
    app = { chat, site: chat, port: 0, notices: [], close: async () => (await chat.close(), await driver.close?.()) };
  }
  const service = app.chat.service;
  for (let i = 0; i < LIST_CHATS; i++) await service.createChat({ userId: LIST_USER }, { title: `Chat ${i + 1}` });
  const token = signHs256({ sub: USER }, REAL_SECRET, 24 * 3600);
  const listToken = signHs256({ sub: LIST_USER }, REAL_SECRET, 24 * 3600);
  const server = createNodeServer(app);
  return {
    server,
    async prepare(count) {
      const bodies: string[] = [];
      for (let i = 0; i < count; i++) {
        const chatId = (await service.createChat({ userId: USER })).recordId;
        bodies.push(JSON.stringify({ chatId, userMessageId: `u-${process.pid}-__SEQ__`, content: REAL_QUESTION }));
      }
      return { path: '/api/ai/chat', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, bodies };
    },
    list: { path: '/api/ai/chats', headers: { authorization: `Bearer ${listToken}` } },
    errors,
    close: () => app.close(),
  };
}
