import { defineProject } from 'vitest/config';

// The browser test needs chromium and runs on its own: `pnpm --filter @chatwire/example-fetch test:browser`.
export default defineProject({
  // Workspace packages resolve to their sources through the `@chatwire/source` export condition.
  resolve: { conditions: ['@chatwire/source'] },
  ssr: { resolve: { conditions: ['@chatwire/source'] } },
  test: { name: 'example-fetch', include: ['src/**/*.test.ts'], exclude: ['src/**/*.e2e.test.ts'] },
});
