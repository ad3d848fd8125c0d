/**
 * A chat server process for the cross-process tests and the soak bench (run with
 * `node --conditions=@chatwire/source --import tsx child-server.ts`). Configured by environment:
 * CW_DATABASE_URL (required), CW_TABLE_PREFIX, CW_APP_NAME (the pool's application_name), CW_REDIS_URL,
 * CW_REDIS_PREFIX, CW_LEASE_TTL_MS, CW_WORDS and CW_DELAY_MS (the slow model), CW_SECRET (HS256),
 * CW_HISTORY (`tree` for branches), CW_APPROVAL_LOG (a file: the approval scenario, with a `notes.purge` tool
 * that needs approval and appends one line per run to that file, driven by the approval model).
 * Listens on 127.0.0.1, port 0, and prints one line `{"port":N}`; every error the handler reports goes
 * to stderr as one line `onError <stage> <message>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createModelRegistry } from '@chatwire/core';
import { createPostgresDriver } from '@chatwire/postgres';
import { createRecordStore } from '@chatwire/storage';
import { createChatHandler } from '../create-chat-handler.js';
import { toNodeListener } from '../adapters/node.js';
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { createApprovalModel } from './approval-model.js';
import { createSlowModel } from './slow-model.js';

const env = process.env;
const databaseUrl = env.CW_DATABASE_URL;
if (!databaseUrl) throw new Error('CW_DATABASE_URL is required');
const url = new URL(databaseUrl);
url.searchParams.set('application_name', env.CW_APP_NAME ?? 'chatwire-child');

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
const driver = createPostgresDriver({
  connectionString: url.toString(),
  tablePrefix: env.CW_TABLE_PREFIX ?? 'cw_child_',
  max: 5,
  onError: (error) => process.stderr.write(`onError driver ${describe(error)}\n`),
});
const store = createRecordStore({ driver });
const approvalLog = env.CW_APPROVAL_LOG;
const model = approvalLog ? createApprovalModel() : createSlowModel({ words: Number(env.CW_WORDS ?? 40), delayMs: Number(env.CW_DELAY_MS ?? 50) });
const purge = {
  description: 'Purges a note.',
  inputSchema: z.object({ title: z.string() }),
  needsApproval: true as const,
  execute: async ({ title }: { title: string }) => {
    appendFileSync(approvalLog!, `${process.pid} ${title}\n`);
    return { purged: title };
  },
};
const handler = createChatHandler({
  store,
  models: createModelRegistry({ env: {}, fallbackModel: model }),
  auth: { secret: env.CW_SECRET ?? 'cross-process-secret-at-least-32-bytes!' },
  summarizerModelId: false,
  heartbeatMs: 0,
  ...(env.CW_HISTORY === 'tree' ? { history: 'tree' as const } : {}),
  ...(approvalLog ? { tools: { custom: { 'notes.purge': purge } } } : {}),
  ...(env.CW_LEASE_TTL_MS ? { turnLeaseTtlMs: Number(env.CW_LEASE_TTL_MS) } : {}),
  ...(env.CW_REDIS_URL ? { redis: { url: env.CW_REDIS_URL, keyPrefix: env.CW_REDIS_PREFIX ?? 'cw-child:' } } : {}),
  onError: (error, context) => process.stderr.write(`onError ${context?.stage ?? '?'} ${describe(error)}\n`),
});
await handler.ready();
// The schema is created before the port is announced, so parallel first requests do not race on it.
await store.asServer().query('ai-chats', { limit: 1 });

const server = createServer(toNodeListener(handler));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, pid: process.pid })}\n`);
});
const stop = () => {
  server.close();
  server.closeAllConnections();
  void Promise.allSettled([handler.close(), driver.close?.()]).then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
