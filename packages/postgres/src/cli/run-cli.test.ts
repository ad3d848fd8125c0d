import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { schemaSql } from '../schema-sql.js';
import { databaseUrl, SERVER_SKIP_REASON, uniqueSchema } from '../testing/test-backends.js';
import { runCli, USAGE } from './run-cli.js';

async function cli(args: string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
  return { code, stdout, stderr };
}

describe('chatwire-postgres', () => {
  it('print writes exactly schemaSql(), with --schema and --prefix too', async () => {
    expect(await cli(['print'])).toEqual({ code: 0, stdout: schemaSql(), stderr: '' });
    const custom = await cli(['print', '--prefix', 'app_', '--schema', 'chat']);
    expect(custom.stdout).toBe(schemaSql({ tablePrefix: 'app_', schema: 'chat' }));
    expect(custom.stdout).toContain('CREATE TABLE IF NOT EXISTS "chat"."app_records"');
    expect((await cli(['print', '--prefix=x_'])).stdout).toBe(schemaSql({ tablePrefix: 'x_' }));
  });

  it('--help prints the usage and exits 0', async () => {
    expect(await cli(['--help'])).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    expect((await cli(['apply', '-h'])).code).toBe(0);
  });

  it.each([
    [['--nope'], /Unknown option '--nope'/],
    [[], /missing command/],
    [['drop'], /unknown command "drop"/],
    [['print', 'extra'], /unexpected argument "extra"/],
    [['print', '--prefix'], /argument missing/],
    [['print', '--prefix', 'x y'], /bad --schema or --prefix/],
    [['print', '--schema', 'a";drop'], /bad --schema or --prefix/],
    [['print', '--url', 'postgres://x'], /--url is only for apply/],
    [['apply'], /apply needs --url/],
  ])('bad usage %j exits 2 with a message and prints nothing', async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('--help');
  });

  it('apply against a server that cannot be reached exits 1 without printing the URL', async () => {
    const result = await cli(['apply', '--url', 'postgres://user:secret@127.0.0.1:1/db']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/apply failed: The database connection was lost/);
    expect(result.stderr).not.toContain('secret');
  });

  it('the bin runs in the workspace through tsx: print, and exit 2 on a bad flag', async () => {
    const run = promisify(execFile);
    const bin = fileURLToPath(new URL('../bin/chatwire-postgres.ts', import.meta.url));
    const node = (args: string[]) =>
      run(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', bin, ...args], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
      });
    expect((await node(['print'])).stdout).toBe(schemaSql());
    const failed = await node(['--bogus']).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toMatch(/Unknown option '--bogus'/);
  }, 60_000);
});

describe.skipIf(!databaseUrl)(`chatwire-postgres apply on the postgres server ${databaseUrl ? '' : SERVER_SKIP_REASON}`, () => {
  const schema = uniqueSchema('cli');
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('creates the tables on a fresh schema and prefix; a second apply succeeds and changes nothing', async () => {
    const tables = () =>
      admin.query(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema]);
    const first = await cli(['apply', '--url', databaseUrl as string, '--schema', schema, '--prefix', 'mig_']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect((await tables()).rows).toEqual([{ name: 'mig_leases' }, { name: 'mig_records' }]);
    const indexes = await admin.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY 1`, [schema]);
    expect(indexes.rows.map((r: { indexname: string }) => r.indexname)).toEqual([
      'mig_leases_pkey',
      'mig_records_chat_created_idx',
      'mig_records_pkey',
      'mig_records_search_v3_idx',
      'mig_records_seq_idx',
      'mig_records_user_created_idx',
    ]);
    const second = await cli(['apply', '--schema', schema, '--prefix', 'mig_'], { DATABASE_URL: databaseUrl });
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect((await tables()).rows).toHaveLength(2);
  });
});
