// Names README fragments use without declaring them. Each README block is type-checked as its own module with
// these in scope; a block that declares the same name shadows it.
import type { ChatHandler } from '@chatwire/server';

declare global {
  /** The chatwire fetch handler, as created in the README's "Mount it" section. */
  const handler: ChatHandler;
  /** Where an app reports errors chatwire swallowed. */
  const onError: (error: unknown) => void;
  /** The app a snippet mounts chatwire on (a node:http listener, an Express app or a Hono app). */
  const app: any;
}
