import { createModelRegistry } from '@chatwire/core';
import { anthropicText, chatCompletionsText, GATEWAY, responsesText, type WireUsage } from '@chatwire/core/testing';
import { createMemoryBlobStore } from '@chatwire/storage';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatHandler } from './create-chat-handler.js';
import { readSse, SECRET, signToken } from './test-support/chat-fixture.js';
import { PDF_BYTES, pngBytes } from './test-support/sample-files.js';

// Attachments through the handler with the real provider packages against msw: the provider request holds
// the exact bytes as base64 and no URL; a model that cannot read a file gets its placeholder, and the bytes
// come back when the chat switches back to a model that reads them.

type Wire = 'a' | 'b' | 'c';
const PROVIDER: Record<Wire, 'provider_a' | 'provider_b' | 'provider_c'> = { a: 'provider_a', b: 'provider_b', c: 'provider_c' };
const USAGE: WireUsage = { input: 30, output: 12, cached: 0, reasoning: 0 };
const requests: Array<{ wire: Wire; body: Record<string, unknown>; raw: string }> = [];
const capture = (wire: Wire, answer: (model: string) => Response) => async ({ request }: { request: Request }) => {
  const raw = await request.text();
  const body = JSON.parse(raw) as Record<string, unknown>;
  requests.push({ wire, body, raw });
  return answer(String(body.model));
};
const server = setupServer(
  http.post(`${GATEWAY.provider_a}/messages`, capture('a', (model) => anthropicText(model, ['Seen.'], USAGE))),
  http.post(`${GATEWAY.provider_b}responses`, capture('b', (model) => responsesText(model, ['Seen.'], USAGE))),
  http.post(`${GATEWAY.provider_c}/chat/completions`, capture('c', (model) => chatCompletionsText(model, ['Seen.'], USAGE))),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => void (requests.length = 0));
afterAll(() => server.close());

function setup() {
  const blobs = createMemoryBlobStore();
  const models = Object.fromEntries(
    (['a', 'b', 'c'] as Wire[]).flatMap((wire) => [
      [`${wire}-vision`, { provider: PROVIDER[wire], vendorId: `${wire}-vision-vendor` }],
      [`${wire}-text`, { provider: PROVIDER[wire], vendorId: `${wire}-text-vendor` }],
    ]),
  );
  const handler = createChatHandler({
    models: createModelRegistry({
      providers: { provider_a: { baseURL: GATEWAY.provider_a }, provider_b: { baseURL: GATEWAY.provider_b }, provider_c: { baseURL: GATEWAY.provider_c } },
      appOwnerToken: 'app-owner-jwt',
      models,
    }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    maxRetries: 0,
    attachments: {
      blobs,
      modelInputs: {
        'a-text': ['text'],
        'b-text': ['text'],
        'c-vision': ['text', 'image', 'text-file'],
      },
    },
  });
  const send = async (method: string, path: string, body?: unknown, user = 'alice') =>
    handler(
      new Request(`http://localhost/api/ai${path}`, {
        method,
        headers: { authorization: `Bearer ${await signToken(user)}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const upload = async (bytes: Uint8Array, type: string, filename: string) => {
    const res = await handler(
      new Request(`http://localhost/api/ai/attachments?filename=${filename}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await signToken('alice')}`, 'content-type': type },
        body: bytes as BodyInit,
      }),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as { attachment: { attachmentId: string } }).attachment.attachmentId;
  };
  return { handler, blobs, send, upload };
}

describe.each(['a', 'b', 'c'] as Wire[])('wire format %s', (wire) => {
  it('sends the exact bytes as base64 and no URL; a text-only model gets the placeholder; switching back sends the bytes again', async () => {
    const { send, upload } = setup();
    const png = pngBytes(3, 2);
    const b64 = png.toString('base64');
    const id = await upload(png, 'image/png', 'dot.png');
    const chatId = ((await (await send('POST', '/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
    const turn = async (userMessageId: string, modelId: string, attachments?: string[]) => {
      const res = await send('POST', '/chat', { chatId, userMessageId, content: 'What is in the picture?', modelId, ...(attachments ? { attachments } : {}) });
      expect(res.status).toBe(200);
      expect((await readSse(res)).chunks.some((chunk) => chunk.type === 'error')).toBe(false);
      expect(requests).toHaveLength(1);
      const sent = requests.pop()!;
      expect(sent.wire).toBe(wire);
      // The prompt only (tool definitions carry JSON Schema URLs).
      return JSON.stringify(sent.body.messages ?? sent.body.input);
    };

    const first = await turn('u1', `${wire}-vision`, [id]);
    expect(first).toContain(b64);
    expect(first).not.toMatch(/https?:\/\//);
    expect(first).not.toContain('/attachments/');
    if (wire === 'a') expect(first).toContain(JSON.stringify({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } }));
    else expect(first).toContain(`data:image/png;base64,${b64}`);

    const second = await turn('u2', `${wire}-text`);
    expect(second).not.toContain(b64);
    expect(second).toContain('Attached file \\"dot.png\\" (image/png) is not shown to this model');

    const third = await turn('u3', `${wire}-vision`);
    expect(third).toContain(b64);
    expect(third).not.toContain('is not shown to this model');
  });

  it('a new attachment the chosen model cannot read is 400 ATTACHMENT_NOT_SUPPORTED before any model call', async () => {
    const { send, upload } = setup();
    const id = await upload(pngBytes(), 'image/png', 'dot.png');
    const chatId = ((await (await send('POST', '/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
    const res = await send('POST', '/chat', { chatId, userMessageId: 'u1', content: 'Look', modelId: `${wire}-text`, attachments: [id] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ATTACHMENT_NOT_SUPPORTED');
    expect(requests).toHaveLength(0);
  });
});

it('a PDF reaches Anthropic as a base64 document and a text file as its text', async () => {
  const { send, upload } = setup();
  const pdf = await upload(PDF_BYTES, 'application/pdf', 'report.pdf');
  const notes = await upload(new TextEncoder().encode('Buy milk ✓'), 'text/plain', 'notes.txt');
  const chatId = ((await (await send('POST', '/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
  const res = await send('POST', '/chat', { chatId, userMessageId: 'u1', content: '', modelId: 'a-vision', attachments: [pdf, notes] });
  expect(res.status).toBe(200);
  await readSse(res);
  const raw = requests.pop()!.raw;
  expect(raw).toContain(JSON.stringify({ type: 'base64', media_type: 'application/pdf', data: PDF_BYTES.toString('base64') }));
  expect(raw).toContain('<file name=\\"notes.txt\\" type=\\"text/plain\\">\\nBuy milk ✓\\n</file>');
});
