import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const databaseUrl = process.env.CHATWIRE_TEST_DATABASE_URL;
const skip = databaseUrl ? '' : '(skipped: CHATWIRE_TEST_DATABASE_URL not set)';
const here = dirname(fileURLToPath(import.meta.url));

describe.skipIf(skip !== '')(`the PostgreSQL notification listener ${skip}`, () => {
  // pg queues overlapping queries on one client with a DeprecationWarning today, and pg@9 removes that queue.
  it(
    'never sends a statement on its connection while another is still running',
    { timeout: 60_000 },
    async () => {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--conditions=@chatwire/source', '--import', 'tsx', join(here, 'listen-many-child.ts')],
        { cwd: resolve(here, '../../../..'), env: { PATH: process.env.PATH ?? '', CW_DATABASE_URL: databaseUrl! }, timeout: 50_000 },
      );
      expect(stdout).toContain('done');
      expect(stderr).not.toContain('already executing a query');
    },
  );
});
