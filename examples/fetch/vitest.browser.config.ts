import { defineConfig } from 'vitest/config';

// Browser end-to-end test (playwright-core driving a system chromium). Not part of `pnpm test`.
export default defineConfig({
  test: { include: ['src/**/*.e2e.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
