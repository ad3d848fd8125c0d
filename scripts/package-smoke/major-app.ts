/**
 * The per-major fresh app (see `check-major-app.sh`): whatever `ai`, `@ai-sdk/react` and
 * `@ai-sdk/openai-compatible` major the app installed, it
 * - builds chatwire's handler with the app's OWN model from that major's provider package, pointed at a
 *   loopback chat-completions server, and serves it over node:http;
 * - type-checks `useChat({ transport: createChatwireTransport(...) })` of that major's `@ai-sdk/react`;
 * - drives that major's `Chat` class through the transport: a submit, then a regenerate, and asserts the
 *   streamed text, the messages `Chat` ends with and the stored ones (`GET /chats/:id`).
 * Only public entries are imported, exactly as an app would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Chat, useChat } from '@ai-sdk/react';
import { createChatClient, createChatwireTransport } from '@chatwire/client';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { toNodeListener } from '@chatwire/server/node';
import { SignJWT } from 'jose';
import { startLoopbackProvider } from './loopback-provider.js';

const SECRET = 'package-major-secret-of-at-least-32-bytes';
const ANSWERS = ['The first answer, from the app’s own model.', 'A regenerated answer, also its own.'];

/** What a React component of the app writes; type-checked against this major's `@ai-sdk/react`, never run. */
export function useChatwireChat(getToken: () => Promise<string>) {
  return useChat({ transport: createChatwireTransport({ baseUrl: '/api/ai', getToken }) });
}

function fail(message: string): never {
  throw new Error(`major app: ${message}`);
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    fail(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

const textOf = (message: { parts: ReadonlyArray<{ type: string; text?: unknown }> }) =>
  message.parts.map((part) => (part.type === 'text' ? String(part.text) : '')).join('');

/** `Chat` keeps a failed turn's error instead of throwing it. */
function expectReady(chat: { status: string; error: Error | undefined }, what: string): void {
  if (chat.error) fail(`${what} failed: ${chat.error.message}`);
  expectEqual(chat.status, 'ready', `status after ${what}`);
}

const provider = await startLoopbackProvider(ANSWERS);
const ownModel = createOpenAICompatible({ name: 'loopback', baseURL: provider.baseURL, apiKey: 'loopback-key' }).chatModel('loopback-chat');
const errors: unknown[] = [];
const handler = createChatHandler({
  models: createModelRegistry({ models: { 'own-model': { model: ownModel, label: 'The app’s own model' } } }),
  auth: { secret: SECRET },
  onError: (error) => errors.push(error),
});
const chatwire = toNodeListener(handler, { onError: (error) => errors.push(error) });
const server = createServer((req, res) => chatwire(req, res, () => res.writeHead(404).end()));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ai`;

try {
  const getToken = () =>
    new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('major-user').setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode(SECRET));
  const client = createChatClient({ baseUrl, getToken });
  const { recordId: chatId } = await client.createChat({ title: 'Per-major app' });
  const chat = new Chat({ id: chatId, transport: createChatwireTransport({ baseUrl, getToken }) });

  await chat.sendMessage({ text: 'Hello from the app' });
  expectReady(chat, 'submit');
  expectEqual(chat.messages.map((m) => [m.role, textOf(m)]), [['user', 'Hello from the app'], ['assistant', ANSWERS[0]]], 'messages after submit');

  await chat.regenerate();
  expectReady(chat, 'regenerate');
  const [user, assistant] = chat.messages;
  expectEqual(chat.messages.map((m) => [m.role, textOf(m)]), [['user', 'Hello from the app'], ['assistant', ANSWERS[1]]], 'messages after regenerate');

  const stored = await client.getChat(chatId);
  expectEqual(
    stored.messages.map((m) => [m.recordId, m.data.role, m.data.content]),
    [[user?.id, 'user', 'Hello from the app'], [assistant?.id, 'assistant', ANSWERS[1]]],
    'stored messages (GET /chats/:id)',
  );
  expectEqual(provider.streamedCalls.length, 2, 'streamed calls the own model made');
  for (const call of provider.streamedCalls) {
    expectEqual(call.model, 'loopback-chat', 'model id the provider got');
    const last = call.messages.at(-1);
    expectEqual([last?.role, JSON.stringify(last?.content).includes('Hello from the app')], ['user', true], 'last message the provider got');
  }
  if (errors.length > 0) fail(`onError was called: ${String(errors[0])}`);
  console.log(`major app: submit and regenerate through Chat on ${process.version}; stored: ${JSON.stringify(ANSWERS[1])}`);
} finally {
  server.close();
  await provider.close();
}
