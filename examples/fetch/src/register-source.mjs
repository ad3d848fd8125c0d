/**
 * `node --import ./src/register-source.mjs --conditions=@chatwire/source src/server.ts`: registers
 * `source-hooks.mjs`, which runs the workspace's TypeScript sources compiled as the published packages are
 * (no `keepNames` wrappers). What `pnpm start` runs. `module.registerHooks` (in-thread, Node 22.15+) where Node
 * has it (Node 26 deprecates `module.register`), else `module.register` (Node 20).
 */
import module from 'node:module';
import { loadSync, resolveSync } from './source-hooks.mjs';

if (typeof module.registerHooks === 'function') module.registerHooks({ resolve: resolveSync, load: loadSync });
else module.register('./source-hooks.mjs', import.meta.url);
