import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: "src/index.ts", testing: "src/testing.ts", limits: "src/limits/index.ts", telemetry: "src/telemetry/index.ts" },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
