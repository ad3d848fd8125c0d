import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-fetch', include: ['src/**/*.test.ts'] },
});
