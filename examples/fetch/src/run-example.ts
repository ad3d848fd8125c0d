import { isChatwireError } from '@chatwire/storage';
import { createExampleApp, type ExampleApp } from './create-example-app.js';
import { ExampleConfigError } from './resolve-example-auth.js';

export interface RunningServer {
  /** The port actually bound (PORT=0 picks a free one). */
  port: number;
  close(): Promise<void>;
}

/**
 * Builds the example app from `process.env`, lets `serve` mount and start it, prints the start-up
 * notices and the URL, and shuts down on SIGINT/SIGTERM. A configuration problem exits with code 1 and
 * a message saying what to set.
 */
export async function runExample(serve: (app: ExampleApp) => Promise<RunningServer>): Promise<void> {
  let app: ExampleApp;
  try {
    app = await createExampleApp(process.env);
  } catch (error) {
    if (error instanceof ExampleConfigError || isChatwireError(error, 'CONFIGURATION')) {
      console.error(`chatwire example cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const server = await serve(app);
  for (const line of app.notices) console.log(line);
  console.log(`chatwire example listening on http://localhost:${server.port}`);

  const stop = (): void => {
    void Promise.allSettled([server.close(), app.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
