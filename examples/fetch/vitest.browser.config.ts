import { defineConfig } from 'vitest/config';

// Browser end-to-end test (playwright-core driving a system chromium). Not part of `pnpm test`.
export default defineConfig({
  // Workspace packages resolve to their sources through the `@chatwire/source` export condition.
  resolve: { conditions: ['@chatwire/source'] },
  ssr: { resolve: { conditions: ['@chatwire/source'] } },
  test: { include: ['src/**/*.e2e.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
