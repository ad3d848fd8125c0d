import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-express', include: ['src/**/*.test.ts'] },
});
