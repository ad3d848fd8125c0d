import { defineProject } from 'vitest/config';

export default defineProject({
  // Workspace packages resolve to their sources through the `development` export condition.
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: { name: 'storage', include: ['src/**/*.test.ts'] },
});
