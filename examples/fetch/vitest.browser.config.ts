import { defineConfig } from 'vitest/config';

// Browser end-to-end test (playwright-core driving a system chromium). Not part of `pnpm test`.
export default defineConfig({
  // Workspace packages resolve to their sources through the `@chatwire/source` export condition.
  resolve: { conditions: ['@chatwire/source'] },
  ssr: { resolve: { conditions: ['@chatwire/source'] } },
  // On CI (a shared 2-core machine) a failed page test runs once more, as Playwright's own runner does there:
  // a real break fails twice; a page that settled a beat late under load does not fail the build.
  test: { include: ['src/**/*.e2e.test.ts'], testTimeout: 60_000, hookTimeout: 60_000, retry: process.env.CI ? 1 : 0 },
});
