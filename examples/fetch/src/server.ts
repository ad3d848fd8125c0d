import { createServer } from 'node:http';
import { toNodeListener } from '@chatwire/server/node';
import { listenNode } from './listen-node.js';
import { runExample } from './run-example.js';

// The default example: plain node:http. chatwire answers under /api/ai; everything else goes to next(),
// here the example's own page and dev sign-in (a fetch handler too, so the same adapter mounts it).
await runExample(async (example) => {
  const chatwire = toNodeListener(example.chat);
  const site = toNodeListener(example.site);
  const server = createServer((req, res) => chatwire(req, res, () => site(req, res)));
  return listenNode(server, example.port);
});
