import { Chat } from '@ai-sdk/react';
import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { MockLanguageModelV2 } from 'ai/test';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createChatClient, createChatwireTransport } from './index.js';

const SECRET = 'client-attachment-secret-that-is-32-bytes';
/** A 1x1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PNG = Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));

function setup() {
  const calls: LanguageModelV2CallOptions[] = [];
  const model = new MockLanguageModelV2({
    doStream: async (options) => {
      calls.push(options);
      return {
        stream: new ReadableStream({
          start(c) {
            c.enqueue({ type: 'text-start', id: 't' });
            c.enqueue({ type: 'text-delta', id: 't', delta: 'A red dot.' });
            c.enqueue({ type: 'text-end', id: 't' });
            c.enqueue({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } });
            c.close();
          },
        }),
      };
    },
  });
  const handler = createChatHandler({ models: createModelRegistry({ env: {}, fallbackModel: model }), auth: { secret: SECRET }, summarizerModelId: false });
  const connection = {
    baseUrl: 'http://localhost/api/ai',
    getToken: () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime('1h').sign(new TextEncoder().encode(SECRET)),
    fetch: (input: RequestInfo | URL, init?: RequestInit) => handler(new Request(input, init)),
  };
  return { calls, connection, client: createChatClient(connection) };
}

describe('attachments from the client', () => {
  it("useChat's sendMessage({ text, files }) uploads each data: URL file and sends its id; the model gets the bytes", async () => {
    const { calls, connection, client } = setup();
    const chatId = (await client.createChat()).recordId;
    const chat = new Chat({ id: chatId, transport: createChatwireTransport(connection) });
    await chat.sendMessage({ text: 'What is this?', files: [{ type: 'file', mediaType: 'image/png', filename: 'dot.png', url: `data:image/png;base64,${PNG_BASE64}` }] });
    expect(chat.status).toBe('ready');
    expect(calls[0]!.prompt.at(-1)!.content).toEqual([
      { type: 'text', text: 'What is this?', providerOptions: undefined },
      { type: 'file', data: PNG, mediaType: 'image/png', filename: 'dot.png', providerOptions: undefined },
    ]);
    const stored = await client.getChat(chatId);
    const file = (stored.messages[0]!.data.parts as Array<Record<string, string>>).find((part) => part.type === 'file')!;
    expect(file).toMatchObject({ mediaType: 'image/png', filename: 'dot.png', attachmentId: expect.stringMatching(/^att_/) });
    const content = await connection.fetch(client.contentUrl(file.url!));
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(PNG);
  });

  it('a file part with an outside URL is refused before anything is sent', async () => {
    const { calls, connection, client } = setup();
    const chat = new Chat({ id: (await client.createChat()).recordId, transport: createChatwireTransport(connection) });
    await chat.sendMessage({ text: 'Look', files: [{ type: 'file', mediaType: 'image/png', url: 'https://example.com/cat.png' }] });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toMatch(/data: URL/);
    expect(calls).toHaveLength(0);
  });

  it('the route client uploads, reads, sends and deletes attachments', async () => {
    const { client, calls } = setup();
    const attachment = await client.uploadAttachment(new Blob([PNG], { type: 'image/png' }), { filename: 'dot.png' });
    expect(attachment).toMatchObject({ mediaType: 'image/png', filename: 'dot.png', size: PNG.byteLength });
    expect((await client.getAttachment(attachment.attachmentId)).sha256).toBe(attachment.sha256);
    const chatId = (await client.createChat()).recordId;
    const turn = await client.sendMessage({ chatId, content: '', attachments: [attachment.attachmentId] });
    for await (const _ of turn.actions) void _;
    expect(calls).toHaveLength(1);
    await expect(client.deleteAttachment(attachment.attachmentId)).rejects.toMatchObject({ code: 'ATTACHMENT_IN_USE', status: 409 });
    const other = await client.uploadAttachment(PNG, { mediaType: 'image/png' });
    expect(await client.deleteAttachment(other.attachmentId)).toEqual({ deleted: true });
    await expect(client.uploadAttachment(PNG, { mediaType: 'image/gif' })).rejects.toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
  });
});
