import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { MockLanguageModelV2 } from 'ai/test';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createChatClient, isChatwireClientError } from './index.js';

/** The route client's feedback and share methods against the real handler, in-process. */
const SECRET = 'client-feedback-secret-that-is-32-bytes';
const answer: LanguageModelV2StreamPart[] = [
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', delta: 'Paris.' },
  { type: 'text-end', id: 'a' },
  { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
];

async function setup() {
  const model = new MockLanguageModelV2({
    doStream: async () => ({ stream: new ReadableStream({ start: (c) => (answer.forEach((p) => c.enqueue(p)), c.close()) }) }),
  });
  const handler = createChatHandler({
    models: createModelRegistry({ fallbackModel: model }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    sharing: true,
  });
  const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) => handler(new Request(input, init))) as typeof fetch;
  const client = createChatClient({ baseUrl: 'http://localhost/api/ai', getToken: () => token, fetch: fetchImpl });
  const anonymous = createChatClient({ baseUrl: 'http://localhost/api/ai', getToken: () => null, fetch: fetchImpl });
  return { client, anonymous };
}

describe('feedback and share methods of the route client', () => {
  it('rates an answer, shows it with the chat, removes it; shares, reads without a token, revokes', async () => {
    const { client, anonymous } = await setup();
    const chat = await client.createChat({ title: 'Capitals' });
    const turn = await client.sendMessage({ chatId: chat.recordId, content: 'Capital of France?' });
    for await (const _ of turn.actions) void _;
    const asst = turn.assistantMessageId;

    const feedback = await client.setFeedback(chat.recordId, asst, { rating: 'up', comment: 'Right' });
    expect(feedback).toMatchObject({ chatId: chat.recordId, messageId: asst, rating: 'up', comment: 'Right' });
    expect((await client.getChat(chat.recordId)).messages[1]!.feedback).toMatchObject({ rating: 'up', comment: 'Right' });
    expect(await client.deleteFeedback(chat.recordId, asst)).toEqual({ chatId: chat.recordId, messageId: asst });
    expect((await client.getChat(chat.recordId)).messages[1]!.feedback).toBeUndefined();

    const { share, url } = await client.createShare(chat.recordId, { expiresInDays: 7 });
    expect(share).toMatchObject({ chatId: chat.recordId, title: 'Capitals', messageCount: 2 });
    const shared = await anonymous.getShared(url.split('/').pop()!);
    expect(shared.messages.map((m) => m.content)).toEqual(['Capital of France?', 'Paris.']);
    expect(await client.revokeShare(share.shareId)).toEqual({ revoked: true });
    const gone = await anonymous.getShared(url.split('/').pop()!).catch((error: unknown) => error);
    expect(isChatwireClientError(gone) && [gone.status, gone.code]).toEqual([404, 'NOT_FOUND']);
  });
});
