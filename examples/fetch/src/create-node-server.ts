import { createServer, type Server } from 'node:http';
import { toNodeListener } from '@chatwire/server/node';
import type { ExampleApp } from './create-example-app.js';

/**
 * The default example's server: plain node:http. chatwire answers under /api/ai; everything else goes to
 * next(), here the example's own page and dev sign-in (a fetch handler too, so the same adapter mounts it).
 */
export function createNodeServer(example: ExampleApp): Server {
  const chatwire = toNodeListener(example.chat);
  const site = toNodeListener(example.site);
  return createServer((req, res) => chatwire(req, res, () => site(req, res)));
}
