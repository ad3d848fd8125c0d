import { defineProject } from 'vitest/config';

export default defineProject({
  // Workspace packages resolve to their sources through the `@chatwire/source` export condition.
  resolve: { conditions: ['@chatwire/source'] },
  ssr: { resolve: { conditions: ['@chatwire/source'] } },
  test: {
    name: 's3',
    include: ['src/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
