import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import type { ChatHandler } from './create-chat-handler.js';
import { signToken } from './test-support/chat-fixture.js';

// The README's "Mount it" block, run exactly as written: it must serve a turn.
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('## Mount it'));
const block = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
// Inside this package so its imports resolve like an app's; removed afterwards.
const dir = new URL('../.readme-tmp/', import.meta.url);
mkdirSync(dir, { recursive: true });
const file = new URL('mount.ts', dir);
writeFileSync(file, block);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("serves a turn with the README's mount code as written", async () => {
  process.env.CHATWIRE_JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long!';
  const { handler } = (await import(/* @vite-ignore */ file.href)) as { handler: ChatHandler };
  const auth = { authorization: `Bearer ${await signToken('alice')}`, 'content-type': 'application/json' };
  const created = await handler(new Request('http://localhost/api/ai/chats', { method: 'POST', headers: auth, body: '{}' }));
  expect(created.status).toBe(201);
  const { chat } = (await created.json()) as { chat: { recordId: string } };
  const turn = await handler(
    new Request('http://localhost/api/ai/chat', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ chatId: chat.recordId, userMessageId: 'u1', content: 'Hello there' }),
    }),
  );
  expect(turn.status).toBe(200);
  const text = await turn.text();
  expect(text).toContain('"type":"text-delta"');
  expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  expect(text).toContain('"type":"finish"');
}, 60_000); // imports the packages' sources and streams the paced demo model
