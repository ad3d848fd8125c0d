import { createMemoryBlobStore } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { BASE, chatFixture, readSse, signToken } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { pngBytes } from './test-support/sample-files.js';

type Json = Record<string, any>;

function fixture(attachments: Json = {}) {
  const blobs = createMemoryBlobStore();
  const scripted = scriptedModel(Array.from({ length: 6 }, () => textStep('Seen.')));
  const f = chatFixture(scripted.model, { handler: { attachments: { blobs, ...attachments } } as never });
  async function upload(user = 'alice', bytes: Uint8Array = pngBytes()) {
    const res = await f.handler(
      new Request(`${BASE}/attachments?filename=dot.png`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await signToken(user)}`, 'content-type': 'image/png' },
        body: bytes as BodyInit,
      }),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as Json).attachment.attachmentId as string;
  }
  const turn = (body: Json, user = 'alice') => f.request('POST', '/chat', { body, user });
  const code = async (res: Response) => ((await res.json()) as Json).error.code as string;
  return { f, blobs, scripted, upload, turn, code };
}

describe('POST /chat with attachments', () => {
  it('stores ids only in the user row, shows a signed url in GET /chats/:id, and sends the bytes to the model', async () => {
    const { f, upload, turn, scripted } = fixture();
    const id = await upload();
    const chatId = await f.createChat('alice');
    const res = await turn({ chatId, userMessageId: 'u1', content: '', attachments: [id] });
    expect(res.status).toBe(200);
    await readSse(res);
    const prompt = scripted.calls[0]!.prompt;
    expect(prompt.at(-1)).toEqual({ role: 'user', content: [{ type: 'file', data: new Uint8Array(pngBytes()), mediaType: 'image/png', filename: 'dot.png', providerOptions: undefined }] });
    const [row] = (await f.rows('ai-messages')).filter((message) => message.data.role === 'user');
    expect(row!.data.parts).toEqual([{ type: 'file', attachmentId: id, mediaType: 'image/png', filename: 'dot.png' }]);
    expect(JSON.stringify(row)).not.toMatch(/url|data:|base64/i);

    const chat = (await (await f.request('GET', `/chats/${chatId}`)).json()) as Json;
    const part = chat.messages[0].data.parts[0];
    expect(part).toMatchObject({ type: 'file', attachmentId: id, url: expect.stringContaining(`/attachments/${id}/content?expires=`) });
    const image = await f.handler(new Request(`http://localhost${part.url}`));
    expect(Buffer.from(await image.arrayBuffer()).equals(pngBytes())).toBe(true);

    // Used by a stored message: it cannot be deleted alone, nor attached to another message.
    const del = await f.request('DELETE', `/attachments/${id}`);
    expect(del.status).toBe(409);
    expect(await fixtureCode(del)).toBe('ATTACHMENT_IN_USE');
    const reuse = await turn({ chatId, userMessageId: 'u2', content: 'again', attachments: [id] });
    expect(reuse.status).toBe(409);
    // The sweep keeps it however old.
    expect(await f.handler.service.attachments.sweep(Date.now() + 30 * 86_400_000)).toBe(0);

    // A regenerate sends the stored message's file again.
    const again = await turn({ chatId, trigger: 'regenerate' });
    expect(again.status).toBe(200);
    await readSse(again);
    expect(JSON.stringify(scripted.calls.at(-1)!.prompt)).toContain('"type":"file"');

    // An edit changes the text and keeps the message's files (stored and sent).
    const edit = await turn({ chatId, trigger: 'edit', userMessageId: 'u1', content: 'What colour is it?' });
    expect(edit.status).toBe(200);
    await readSse(edit);
    expect(scripted.calls.at(-1)!.prompt.at(-1)!.content).toEqual([
      { type: 'text', text: 'What colour is it?', providerOptions: undefined },
      { type: 'file', data: new Uint8Array(pngBytes()), mediaType: 'image/png', filename: 'dot.png', providerOptions: undefined },
    ]);
    const edited = (await f.rows('ai-messages')).find((message) => message.data.role === 'user')!;
    expect(edited.data.parts).toEqual([
      { type: 'text', text: 'What colour is it?' },
      { type: 'file', attachmentId: id, mediaType: 'image/png', filename: 'dot.png' },
    ]);
  });

  it('bad input: another user’s id 404, a URL where an id belongs 400, empty content without attachments 400, limits', async () => {
    const { f, upload, turn, code } = fixture({ maxFilesPerMessage: 2, maxTurnBytes: 2 * pngBytes().length + 10 });
    const chatId = await f.createChat('alice');
    const bobs = await upload('bob');
    const theirs = await turn({ chatId, userMessageId: 'u1', content: 'hi', attachments: [bobs] });
    expect(theirs.status).toBe(404);
    expect(await code(theirs)).toBe('ATTACHMENT_NOT_FOUND');
    for (const bad of ['data:image/png;base64,iVBORw0KGgo=', 'https://example.com/cat.png', 'http://169.254.169.254/latest', 'file:///etc/passwd', 'cat.png']) {
      const res = await turn({ chatId, userMessageId: 'u1', content: 'hi', attachments: [bad] });
      expect(res.status, bad).toBe(400);
      expect(await code(res)).toBe('VALIDATION');
    }
    const empty = await turn({ chatId, userMessageId: 'u1', content: '  ' });
    expect(empty.status).toBe(400);
    const ids = [await upload(), await upload(), await upload()];
    const many = await turn({ chatId, userMessageId: 'u1', content: 'hi', attachments: ids });
    expect(many.status).toBe(400);
    const big = Buffer.concat([pngBytes(), Buffer.alloc(20)]);
    const heavy = await turn({ chatId, userMessageId: 'u1', content: 'hi', attachments: [await upload('alice', big), await upload('alice', big)] });
    expect(heavy.status).toBe(413);
    expect(await code(heavy)).toBe('ATTACHMENT_TOO_LARGE');
    // None of these stored anything or called the model.
    expect(await f.rows('ai-messages')).toEqual([]);
  });

  it('deleting the chat deletes its attachments and their bytes', async () => {
    const { f, blobs, upload, turn } = fixture();
    const id = await upload();
    const kept = await upload();
    const chatId = await f.createChat('alice');
    await readSse(await turn({ chatId, userMessageId: 'u1', content: 'look', attachments: [id] }));
    expect(blobs.size).toBe(2);
    expect((await f.request('DELETE', `/chats/${chatId}`)).status).toBe(200);
    expect((await f.rows('ai-attachments')).map((row) => row.recordId)).toEqual([kept]);
    expect(blobs.size).toBe(1);
    expect((await f.request('GET', `/attachments/${id}`)).status).toBe(404);
  });

  it('GET /models lists what each model reads', async () => {
    const { f } = fixture();
    const { models } = (await (await f.request('GET', '/models')).json()) as Json;
    expect(models.find((model: Json) => model.id === 'alpha-sonnet-4-6').inputs).toEqual(['text', 'image', 'pdf', 'text-file']);
    expect(models.find((model: Json) => model.id === 'gamma-oss-120b').inputs).toEqual(['text', 'text-file']);
  });
});

async function fixtureCode(res: Response): Promise<string> {
  return ((await res.json()) as Json).error.code as string;
}
