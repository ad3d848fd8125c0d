import { createHash } from 'node:crypto';
import { createMemoryBlobStore } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { BASE, chatFixture, signToken } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { GIF_BYTES, JPEG_BYTES, PDF_BYTES, pngBytes } from './test-support/sample-files.js';

type Json = Record<string, any>;

function fixture(attachments: Json = {}) {
  const blobs = createMemoryBlobStore();
  const f = chatFixture(scriptedModel([textStep('ok')]).model, { handler: { attachments: { blobs, ...attachments } } as never });
  async function upload(bytes: Uint8Array | string, contentType: string, options: { user?: string; filename?: string } = {}) {
    const query = options.filename === undefined ? '' : `?filename=${encodeURIComponent(options.filename)}`;
    return f.handler(
      new Request(`${BASE}/attachments${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await signToken(options.user ?? 'alice')}`, 'content-type': contentType },
        body: bytes as BodyInit,
      }),
    );
  }
  return { f, blobs, upload };
}

describe('attachment routes', () => {
  it('uploads raw bytes, describes them, serves them with a bearer and by the signed URL alone', async () => {
    const { f, upload } = fixture();
    const png = pngBytes();
    const res = await upload(png, 'image/png', { filename: 'red dot.png' });
    expect(res.status).toBe(201);
    const { attachment } = (await res.json()) as Json;
    expect(attachment).toEqual({
      attachmentId: expect.stringMatching(/^att_/),
      mediaType: 'image/png',
      filename: 'red dot.png',
      size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
      createdAt: expect.any(String),
      url: expect.stringMatching(new RegExp(`^/api/ai/attachments/${attachment.attachmentId}/content\\?expires=\\d+&sig=[\\w-]+$`)),
    });
    const got = await f.request('GET', `/attachments/${attachment.attachmentId}`);
    expect(((await got.json()) as Json).attachment).toMatchObject({ attachmentId: attachment.attachmentId, sha256: attachment.sha256 });

    const content = await f.request('GET', `/attachments/${attachment.attachmentId}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/png');
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await content.arrayBuffer()).equals(png)).toBe(true);

    const signed = await f.handler(new Request(`http://localhost${attachment.url}`));
    expect(signed.status).toBe(200);
    expect(Buffer.from(await signed.arrayBuffer()).equals(png)).toBe(true);
    // One character of the signature changed (to another one: 'A' would leave a signature starting with 'A' as it was).
    const forged = await f.handler(new Request(`http://localhost${attachment.url.replace(/sig=(.)/, (_: string, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`)}`));
    expect(forged.status).toBe(404);
    const noToken = await f.request('GET', `/attachments/${attachment.attachmentId}/content`, { user: null });
    expect(noToken.status).toBe(401);
  });

  it('a signed URL stops working when it expires', async () => {
    const { f, upload } = fixture({ urlTtlMs: 1 });
    const { attachment } = (await (await upload(pngBytes(), 'image/png')).json()) as Json;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await f.handler(new Request(`http://localhost${attachment.url}`))).status).toBe(404);
  });

  it('accepts multipart/form-data with one file part, and each allowed type', async () => {
    const { f } = fixture();
    const form = new FormData();
    form.append('note', 'skipped');
    form.append('file', new Blob([PDF_BYTES], { type: 'application/pdf' }), 'report.pdf');
    const res = await f.handler(
      new Request(`${BASE}/attachments`, { method: 'POST', headers: { authorization: `Bearer ${await signToken('alice')}` }, body: form }),
    );
    expect(res.status).toBe(201);
    const { attachment } = (await res.json()) as Json;
    expect(attachment).toMatchObject({ mediaType: 'application/pdf', filename: 'report.pdf', size: PDF_BYTES.length });
    const bytes = await (await f.request('GET', `/attachments/${attachment.attachmentId}/content`)).arrayBuffer();
    expect(Buffer.from(bytes).equals(PDF_BYTES)).toBe(true);
    const { upload } = fixture();
    for (const [bytes, type] of [
      [JPEG_BYTES, 'image/jpeg'],
      [GIF_BYTES, 'image/gif'],
      ['# Notes\n\nnaïve café ✓\n', 'text/markdown; charset=utf-8'],
      ['a,b\n1,2\n', 'text/csv'],
    ] as const) {
      const answer = await upload(bytes, type);
      expect(answer.status, type).toBe(201);
    }
  });

  it('415 for a declared type the bytes do not match, a type not allowed, or text that is not clean UTF-8; nothing stored', async () => {
    const { f, blobs, upload } = fixture();
    const cases: [Uint8Array | string, string][] = [
      [JPEG_BYTES, 'image/png'],
      [pngBytes(), 'image/jpeg'],
      [pngBytes(), 'text/plain'],
      [PDF_BYTES, 'image/png'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml'],
      ['<html><script>alert(1)</script></html>', 'text/html'],
      [Buffer.from([0x68, 0x69, 0x00, 0x21]), 'text/plain'],
      [Buffer.from([0x68, 0xff, 0xfe, 0x21]), 'text/plain'],
      ['plain', 'text/plain; charset=iso-8859-1'],
      [pngBytes(), 'application/octet-stream'],
    ];
    for (const [bytes, type] of cases) {
      const res = await upload(bytes, type);
      expect(res.status, type).toBe(415);
      expect(((await res.json()) as Json).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await f.rows('ai-attachments')).toEqual([]);
    expect(blobs.size).toBe(0);
  });

  it('keeps a hostile filename as a display name only', async () => {
    const { upload } = fixture();
    const res = await upload(pngBytes(), 'image/png', { filename: '../../etc/\u0000pass\u202ewd\r\n.png' });
    expect(((await res.json()) as Json).attachment.filename).toBe('../../etc/passwd.png');
    const long = await upload(pngBytes(), 'image/png', { filename: 'é'.repeat(300) });
    const name = ((await long.json()) as Json).attachment.filename as string;
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name).toBe('é'.repeat(127));
  });

  it("another user's attachment is 404 ATTACHMENT_NOT_FOUND on every route; an unknown or malformed id too", async () => {
    const { f, upload } = fixture();
    const { attachment } = (await (await upload(pngBytes(), 'image/png')).json()) as Json;
    for (const [method, path] of [
      ['GET', `/attachments/${attachment.attachmentId}`],
      ['GET', `/attachments/${attachment.attachmentId}/content`],
      ['DELETE', `/attachments/${attachment.attachmentId}`],
      ['GET', '/attachments/att_unknown'],
      ['GET', '/attachments/..%2F..%2Fetc'],
    ] as const) {
      const res = await f.request(method, path, { user: 'bob' });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as Json).error.code).toBe('ATTACHMENT_NOT_FOUND');
    }
    expect((await f.request('GET', `/attachments/${attachment.attachmentId}`)).status).toBe(200);
  });

  it('413 past the file limit and 429 past the quota, nothing stored', async () => {
    const { f, blobs, upload } = fixture({ maxFileBytes: 1000, quotaBytesPerUser: 1500 });
    const big = Buffer.concat([pngBytes(), Buffer.alloc(2000)]);
    const res = await upload(big, 'image/png');
    expect(res.status).toBe(413);
    expect(((await res.json()) as Json).error.code).toBe('ATTACHMENT_TOO_LARGE');
    // Without a Content-Length (a stream), the limit is met while reading.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(pngBytes());
        controller.enqueue(new Uint8Array(2000));
        controller.close();
      },
    });
    const streamed = await f.handler(
      new Request(`${BASE}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await signToken('alice')}`, 'content-type': 'image/png' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(await f.rows('ai-attachments')).toEqual([]);
    expect(blobs.size).toBe(0);

    const small = Buffer.concat([pngBytes(), Buffer.alloc(800 - pngBytes().length)]);
    expect((await upload(small, 'image/png')).status).toBe(201);
    const over = await upload(small, 'image/png');
    expect(over.status).toBe(429);
    expect(((await over.json()) as Json).error.code).toBe('QUOTA_EXCEEDED');
    expect(await f.rows('ai-attachments')).toHaveLength(1);
    expect((await upload(small, 'image/png', { user: 'bob' })).status).toBe(201);
  });

  it('deletes an unattached upload: 200, then 404; its bytes go too', async () => {
    const { f, blobs, upload } = fixture();
    const { attachment } = (await (await upload(pngBytes(), 'image/png')).json()) as Json;
    const res = await f.request('DELETE', `/attachments/${attachment.attachmentId}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    expect(blobs.size).toBe(0);
    expect((await f.request('DELETE', `/attachments/${attachment.attachmentId}`)).status).toBe(404);
  });

  it('the sweep deletes uploads no message uses once they are a day old', async () => {
    const { f, blobs, upload } = fixture();
    await upload(pngBytes(), 'image/png');
    expect(await f.handler.service.attachments.sweep(Date.now())).toBe(0);
    expect(await f.handler.service.attachments.sweep(Date.now() + 25 * 60 * 60_000)).toBe(1);
    expect(await f.rows('ai-attachments')).toEqual([]);
    expect(blobs.size).toBe(0);
  });
});
