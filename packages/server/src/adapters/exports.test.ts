import { describe, expect, it } from 'vitest';

// The public surface of each adapter subpath (h3 snapshots its exports the same way): a change here is
// an API change and must be deliberate.
describe('adapter subpath exports', () => {
  it.each([
    ['@chatwire/server/node', () => import('./node.js')],
    ['@chatwire/server/express', () => import('./express.js')],
    ['@chatwire/server/hono', () => import('./hono.js')],
  ])('%s', async (_name, load) => {
    expect(Object.keys(await load()).sort()).toMatchSnapshot();
  });
});
