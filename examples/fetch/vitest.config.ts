import { defineProject } from 'vitest/config';

// The browser test needs chromium and runs on its own: `pnpm --filter @chatwire/example-fetch test:browser`.
export default defineProject({
  // Workspace packages resolve to their sources through the `development` export condition.
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: { name: 'example-fetch', include: ['src/**/*.test.ts'], exclude: ['src/**/*.e2e.test.ts'] },
});
