import { parseArgs } from 'node:util';
import { ChatwireError } from '@chatwire/storage';
import { createPostgresDriver } from '../create-postgres-driver.js';
import { schemaSql } from '../schema-sql.js';
import { createTableNames } from '../table-names.js';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Environment for defaults (`DATABASE_URL`). */
  env: Record<string, string | undefined>;
}

export const USAGE = `Usage:
  chatwire-postgres print [--schema <name>] [--prefix <prefix>]
      Prints the SQL that creates chatwire's tables and indexes (idempotent, IF NOT EXISTS).
  chatwire-postgres apply [--url <DATABASE_URL>] [--schema <name>] [--prefix <prefix>]
      Applies it to the database (default --url: $DATABASE_URL). Running it again changes nothing.
  chatwire-postgres --help

Options:
  --schema   schema holding the tables (default public)
  --prefix   table name prefix (default chatwire_): tables <prefix>records and <prefix>leases
`;

const OPTIONS = {
  url: { type: 'string' },
  schema: { type: 'string' },
  prefix: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Exit codes: 0 done, 1 the database failed, 2 bad usage. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const usageError = (message: string) => {
    io.stderr(`chatwire-postgres: ${message}\nRun "chatwire-postgres --help" for usage.\n`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const [command, ...extra] = positionals;
  if (command === undefined) return usageError('missing command (print or apply)');
  if (command !== 'print' && command !== 'apply') return usageError(`unknown command "${command}"`);
  if (extra.length > 0) return usageError(`unexpected argument "${extra[0]}"`);
  const tableOptions = {
    ...(values.schema !== undefined ? { schema: values.schema } : {}),
    ...(values.prefix !== undefined ? { tablePrefix: values.prefix } : {}),
  };
  try {
    createTableNames(tableOptions.schema ?? 'public', tableOptions.tablePrefix ?? 'chatwire_');
  } catch (error) {
    return usageError(`bad --schema or --prefix: ${error instanceof Error ? error.message : String(error)}`);
  }

  if (command === 'print') {
    if (values.url !== undefined) return usageError('--url is only for apply');
    io.stdout(schemaSql(tableOptions));
    return 0;
  }

  const url = values.url ?? io.env.DATABASE_URL;
  if (!url) return usageError('apply needs --url <DATABASE_URL> (or DATABASE_URL in the environment)');
  const driver = createPostgresDriver({ connectionString: url, max: 1, ...tableOptions });
  try {
    await driver.ready();
    io.stdout(`Applied the chatwire schema (schema "${tableOptions.schema ?? 'public'}", table prefix "${tableOptions.tablePrefix ?? 'chatwire_'}").\n`);
    return 0;
  } catch (error) {
    const cause = ChatwireError.is(error) && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    io.stderr(`chatwire-postgres: apply failed: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
    return 1;
  } finally {
    await driver.close().catch(() => undefined);
  }
}
