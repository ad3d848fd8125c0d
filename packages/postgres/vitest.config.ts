import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'postgres', include: ['src/**/*.test.ts'] },
});
