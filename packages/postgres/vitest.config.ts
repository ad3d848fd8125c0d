import { defineProject } from 'vitest/config';

export default defineProject({
  // Workspace packages resolve to their sources through the `@chatwire/source` export condition.
  resolve: { conditions: ['@chatwire/source'] },
  ssr: { resolve: { conditions: ['@chatwire/source'] } },
  test: {
    name: 'postgres',
    include: ['src/**/*.test.ts'],
    // One PGlite instance per worker is shared by every test file (starting one takes seconds), and the
    // server tests share one database: run the files one after another in one worker.
    isolate: false,
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
