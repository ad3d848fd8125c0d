/**
 * `node --import ./src/register-source.mjs --conditions=@chatwire/source src/server.ts`: registers
 * `source-hooks.mjs`, which runs the workspace's TypeScript sources compiled as the published packages are
 * (no `keepNames` wrappers). What `pnpm start` runs.
 */
import { register } from 'node:module';

register('./source-hooks.mjs', import.meta.url);
