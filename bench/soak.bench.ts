/**
 * Soak under faults: three chat server processes (`packages/server/src/cross-process/child-server.ts`,
 * default lease TTL, stops across processes over LISTEN/NOTIFY, or Redis when CHATWIRE_TEST_REDIS_URL is
 * set) on one PostgreSQL with a scratch table prefix, and a driver process sending mixed turns (submit, edit, regenerate), renames, deletes, aborts
 * and stops from several users for 60 s (`--quick`: 6 s), bounded in operations too. The PostgreSQL
 * cluster is restarted twice during the run (when this machine can; else, and always with `--quick` unless
 * CHATWIRE_SOAK_DB_FAULT=restart, every backend of the soak is terminated twice, and the output says so). Afterwards: crashed processes, unpaired and orphan rows, the
 * longest run of `409 CHAT_BUSY` after the database is back, and the turn counts.
 * Needs CHATWIRE_TEST_DATABASE_URL (or DATABASE_URL); loopback only.
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.js';
import { spawnChildServer, type ChildServer } from '../packages/server/src/cross-process/spawn-child-server.js';
import { auditRows, createPostgresExecutor, databaseFault } from './support/soak-database.js';
import type { SoakDriverConfig, SoakDriverResult } from './support/soak-protocol.js';
import { QUICK } from './support/quick.js';

const here = dirname(fileURLToPath(import.meta.url));
const SECRET = 'cross-process-secret-at-least-32-bytes!';
const SERVERS = 3;
const USERS = 6;

function runDriver(config: SoakDriverConfig): { result: Promise<SoakDriverResult>; pid: number; kill(): void } {
  const child = fork(join(here, 'support', 'soak-driver.ts'), [JSON.stringify(config)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const result = new Promise<SoakDriverResult>((resolve, reject) => {
    let message: SoakDriverResult | undefined;
    child.on('message', (m: SoakDriverResult) => (message = m));
    child.on('error', reject);
    child.on('exit', (code, signal) => (message ? resolve(message) : reject(new Error(`soak driver exited with ${code ?? signal}`))));
  });
  return {
    result,
    pid: child.pid!,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
    },
  };
}

export default async function bench(): Promise<BenchRow[]> {
  const url = process.env.CHATWIRE_TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) {
    return [{ group: 'soak', name: 'soak under faults (skipped: CHATWIRE_TEST_DATABASE_URL not set)', value: 0, unit: '' }];
  }
  const durationMs = QUICK ? 6_000 : 60_000;
  const prefix = `cw_soak_${Date.now().toString(36)}_`;
  // With CHATWIRE_TEST_REDIS_URL the servers share running turns through Redis too (stops over pub/sub).
  const redisUrl = process.env.CHATWIRE_TEST_REDIS_URL;
  const redisEnv: Record<string, string> = redisUrl ? { CW_REDIS_URL: redisUrl, CW_REDIS_PREFIX: `${prefix}:` } : {};
  const sql = createPostgresExecutor({ connectionString: url, max: 2 });
  const fault = await databaseFault(url, sql, prefix, { restart: !QUICK });
  const servers: ChildServer[] = [];
  let driver: ReturnType<typeof runDriver> | null = null;
  try {
    servers.push(
      ...(await Promise.all(
        Array.from({ length: SERVERS }, (_, i) =>
          spawnChildServer(
            { CW_DATABASE_URL: url, CW_TABLE_PREFIX: prefix, CW_APP_NAME: `${prefix}s${i}`, CW_WORDS: '20', CW_DELAY_MS: '20', CW_SECRET: SECRET, ...redisEnv },
            { startTimeoutMs: 120_000 },
          ),
        ),
      )),
    );
    const started = Date.now();
    driver = runDriver({ bases: servers.map((s) => s.base), durationMs, users: USERS, maxOps: QUICK ? 750 : 9_000, secret: SECRET, seed: 42 });
    const outages: Array<{ downAt: number; backAt: number }> = [];
    for (const at of [1 / 3, 2 / 3]) {
      const wait = started + durationMs * at - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      outages.push(await fault.inject());
    }
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('soak driver did not finish in time')), durationMs + 90_000).unref());
    const result = await Promise.race([driver.result, timeout]);
    // Turns still settling (a release, a save) finish before the audit.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const crashed = servers.filter((s) => s.exit !== null);
    const audit = await auditRows(sql, prefix);

    const backs = outages.map((o) => o.backAt);
    const afterBack = (streak: { start: number; end: number }) => {
      const back = Math.max(...backs.filter((b) => b <= streak.end), Number.NEGATIVE_INFINITY);
      return streak.end - Math.max(streak.start, back);
    };
    const longestBusy = Math.max(0, ...result.busyStreaks.map(afterBack));
    const unresolved = result.busyStreaks.filter((s) => s.unresolved).length;
    const outageNote = outages.map((o) => `${((o.backAt - o.downAt) / 1000).toFixed(1)} s`).join(', ');
    const turns = result.turnsCompleted + result.turnsFailed + result.turnsAborted;
    const ops = Object.entries(result.ops)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const orphans = audit.unpairedUser + audit.orphanAssistant + audit.messagesOfDeletedChats + audit.turnsWithoutMessages;
    const errorLines = servers.flatMap((s) => s.stderr).filter((line) => !line.startsWith('onError'));
    if (result.samples.length > 0) process.stdout.write(`\nsoak driver samples:\n  ${result.samples.join('\n  ')}\n`);
    const streakCauses: Record<string, number> = {};
    for (const streak of result.busyStreaks) streakCauses[streak.after] = (streakCauses[streak.after] ?? 0) + 1;
    process.stdout.write(
      `\nsoak: ${fault.kind}; outages ${outageNote}; ops ${ops}\n` +
        `soak: failures ${JSON.stringify(result.failures)}\n` +
        `soak: CHAT_BUSY streaks by the previous operation ${JSON.stringify(streakCauses)}, longest overall ${(Math.max(0, ...result.busyStreaks.map((s) => s.end - s.start)) / 1000).toFixed(1)} s\n`,
    );
    if (errorLines.length > 0) process.stdout.write(`\nsoak server stderr (not onError):\n  ${errorLines.slice(0, 20).join('\n  ')}\n`);
    const group = 'soak';
    const span = `${SERVERS} processes${redisUrl ? ' + Redis' : ''}, ${USERS} users, ${durationMs / 1000} s`;
    return [
      {
        group,
        name: `crashed server processes (${span}; PostgreSQL faulted twice)`,
        value: crashed.length,
        unit: 'processes',
        goal: '0',
        met: crashed.length === 0,
        note: `${fault.kind}; outages ${outageNote}${crashed.length ? `; exits: ${crashed.map((s) => JSON.stringify(s.exit)).join(' ')}` : ''}`,
      },
      {
        group,
        name: 'unpaired or orphan rows (user w/o assistant, assistant w/o user, messages of deleted chats, turn rows w/o messages)',
        value: orphans,
        unit: 'rows',
        goal: '0',
        met: orphans === 0,
        note: `${audit.unpairedUser} / ${audit.orphanAssistant} / ${audit.messagesOfDeletedChats} / ${audit.turnsWithoutMessages} of ${audit.messages} messages, ${audit.turns} turn rows, ${audit.chats} chats`,
      },
      {
        group,
        name: 'longest CHAT_BUSY streak after the database is back',
        value: longestBusy / 1000,
        unit: 's',
        goal: '< 5 s',
        met: longestBusy < 5_000 && unresolved === 0,
        note: `${result.busyStreaks.length} streaks, ${unresolved} unresolved`,
      },
      {
        group,
        name: 'turns completed (finish, stops included)',
        value: result.turnsCompleted,
        unit: 'turns',
        ratio: { value: turns === 0 ? 0 : result.turnsCompleted / turns, against: `all ${turns} turns` },
        note: ops,
      },
      {
        group,
        name: 'turns failed (error chunk or refused: 503 while the database is down, 409, 404)',
        value: result.turnsFailed,
        unit: 'turns',
        ratio: { value: turns === 0 ? 0 : result.turnsFailed / turns, against: `all ${turns} turns` },
        note: `aborted by the client: ${result.turnsAborted}; failures ${JSON.stringify(result.failures)}; statuses ${JSON.stringify(result.statuses)}; network errors ${result.networkErrors}`,
      },
    ];
  } finally {
    driver?.kill();
    await Promise.all(servers.map((s) => s.kill()));
    await sql.query(`DROP TABLE IF EXISTS public."${prefix}records", public."${prefix}leases"`).catch(() => undefined);
    await sql.close();
  }
}
