import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index": "src/index.ts", "memory/index": "src/memory/index.ts", "testing/index": "src/testing/index.ts"},
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
