import { createNodeServer } from './create-node-server.js';
import { listenNode } from './listen-node.js';
import { runExample } from './run-example.js';

await runExample(async (example) => listenNode(createNodeServer(example), example.port));
