import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-hono', include: ['src/**/*.test.ts'] },
});
