/**
 * The soak's database side: the PostgreSQL fault (a real cluster restart when this machine can, else
 * terminating every backend of the soak's servers) and the audit of the stored rows afterwards.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createPostgresExecutor, type SqlExecutor } from '@chatwire/postgres';

const run = promisify(execFile);

export interface DatabaseFault {
  /** What `inject` does, for the output. */
  kind: string;
  /** Injects the fault and resolves once a new connection answers again (the database is back). */
  inject(): Promise<{ downAt: number; backAt: number }>;
}

/** The local cluster serving `url`'s port, when `pg_ctlcluster` can restart it (root or its owner). */
async function localCluster(url: string): Promise<{ version: string; name: string } | null> {
  const { hostname, port } = new URL(url);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(hostname)) return null;
  try {
    const { stdout } = await run('pg_lsclusters', ['--no-header']);
    for (const line of stdout.split('\n')) {
      const [version, name, clusterPort, status] = line.trim().split(/\s+/);
      if (clusterPort === (port || '5432') && status?.startsWith('online') && version && name) return { version, name };
    }
  } catch {
    // No pg_lsclusters here.
  }
  return null;
}

async function waitUntilUp(sql: SqlExecutor, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await sql.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * `restart: false` (the soak's `--quick` mode): terminate backends, never restart the cluster, unless
 * CHATWIRE_SOAK_DB_FAULT=restart asks for it.
 */
export async function databaseFault(url: string, sql: SqlExecutor, applicationPrefix: string, options: { restart?: boolean } = {}): Promise<DatabaseFault> {
  const env = process.env.CHATWIRE_SOAK_DB_FAULT;
  const noRestart = env === 'terminate' || (options.restart === false && env !== 'restart');
  const cluster = noRestart ? null : await localCluster(url);
  const canRestart = cluster !== null && (process.getuid?.() === 0 || process.env.CHATWIRE_SOAK_DB_FAULT === 'restart');
  if (canRestart) {
    return {
      kind: `PostgreSQL cluster ${cluster.version}/${cluster.name} restarted (pg_ctlcluster restart -m fast)`,
      async inject() {
        const downAt = Date.now();
        await run('pg_ctlcluster', [cluster.version, cluster.name, 'restart', '-m', 'fast'], { timeout: 60_000 });
        await waitUntilUp(sql, 60_000);
        return { downAt, backAt: Date.now() };
      },
    };
  }
  return {
    kind: `every backend of the soak servers terminated (pg_terminate_backend; ${
      env === 'terminate' ? 'CHATWIRE_SOAK_DB_FAULT=terminate' : noRestart ? 'quick mode: no cluster restart' : 'no cluster restart possible here'
    })`,
    async inject() {
      const downAt = Date.now();
      await sql.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE $1`, [`${applicationPrefix}%`]);
      await waitUntilUp(sql, 60_000);
      return { downAt, backAt: Date.now() };
    },
  };
}

export interface SoakAudit {
  chats: number;
  messages: number;
  turns: number;
  /** User messages not followed by their assistant message. */
  unpairedUser: number;
  /** Assistant messages not preceded by a user message. */
  orphanAssistant: number;
  messagesOfDeletedChats: number;
  /** Turn rows whose user or assistant message is not stored. */
  turnsWithoutMessages: number;
}

export async function auditRows(sql: SqlExecutor, prefix: string): Promise<SoakAudit> {
  const records = `public."${prefix}records"`;
  const chats = new Set(
    (await sql.query<{ record_id: string }>(`SELECT record_id FROM ${records} WHERE collection = 'ai-chats'`)).rows.map((r) => r.record_id),
  );
  // A user row's recordId is the client's id unless another user held it (then owner-scoped); `data.messageId` is always the client's id.
  const messages = (
    await sql.query<{ id: string; chat: string; role: string }>(
      `SELECT COALESCE(data->>'messageId', record_id) AS id, data->>'chatId' AS chat, data->>'role' AS role FROM ${records} WHERE collection = 'ai-messages' ORDER BY data->>'chatId', seq`,
    )
  ).rows;
  const turns = (
    await sql.query<{ u: string; a: string }>(
      `SELECT data->>'userMessageId' AS u, data->>'assistantMessageId' AS a FROM ${records} WHERE collection = 'ai-turns'`,
    )
  ).rows;
  const ids = new Set(messages.map((m) => m.id));
  let unpairedUser = 0;
  let orphanAssistant = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const next = messages[i + 1];
    const previous = messages[i - 1];
    if (m.role === 'user' && !(next && next.chat === m.chat && next.role === 'assistant')) unpairedUser++;
    if (m.role === 'assistant' && !(previous && previous.chat === m.chat && previous.role === 'user')) orphanAssistant++;
  }
  return {
    chats: chats.size,
    messages: messages.length,
    turns: turns.length,
    unpairedUser,
    orphanAssistant,
    messagesOfDeletedChats: messages.filter((m) => !chats.has(m.chat)).length,
    turnsWithoutMessages: turns.filter((t) => !ids.has(t.u) || !ids.has(t.a)).length,
  };
}

export { createPostgresExecutor };
