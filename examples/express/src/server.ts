import { createServer } from 'node:http';
import { listenNode } from '@chatwire/example-fetch/listen-node';
import { runExample } from '@chatwire/example-fetch/run-example';
import { createExpressApp } from './create-express-app.js';

await runExample(async (example) => listenNode(createServer(createExpressApp(example)), example.port));
