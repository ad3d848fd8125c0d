import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index": "src/index.ts", "adapters/express": "src/adapters/express.ts", "adapters/hono": "src/adapters/hono.ts", "adapters/node": "src/adapters/node.ts"},
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
