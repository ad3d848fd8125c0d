import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { chatwireHono } from './hono.js';
import { createEchoHandler } from './testing/create-echo-handler.js';

describe('chatwireHono', () => {
  it('hands the handler a body that an earlier middleware already read', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      if (c.req.method === 'POST') await c.req.json(); // e.g. a logging or validation middleware
      await next();
    });
    app.use(chatwireHono(createEchoHandler()));
    const response = await app.request('/api/ai/chats', { method: 'POST', body: '{"title":"t"}' });
    expect(await response.json()).toEqual({ method: 'POST', path: '/api/ai/chats', body: '{"title":"t"}' });
  });

  it('falls through to later routes outside the base path', async () => {
    const app = new Hono();
    app.use(chatwireHono(createEchoHandler()));
    app.get('/', (c) => c.text('home'));
    expect(await (await app.request('/')).text()).toBe('home');
  });
});
