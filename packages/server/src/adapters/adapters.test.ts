import { describe, expect, it } from 'vitest';
import { APP_ROUTE, APP_ROUTE_TEXT, describeAdapterMatrix } from './testing/adapter-matrix.js';
import { createControllableModel } from './testing/create-controllable-model.js';
import { createMatrixHandler, type MatrixHandler } from './testing/create-matrix-handler.js';
import { readStreamUntil, sseChunks } from './testing/read-stream-until.js';

let setup: MatrixHandler;

describe('chat handler mounted in each adapter', () => {
  describeAdapterMatrix(
    async () => {
      setup = await createMatrixHandler();
      return setup.handler;
    },
    (target) => {
      const json = (token: string | null = setup.token): Record<string, string> => ({
        'content-type': 'application/json',
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      });
      const createChat = async (): Promise<string> => {
        const response = await target().fetch('/api/ai/chats', {
          method: 'POST',
          headers: json(),
          body: JSON.stringify({ title: 'matrix' }),
        });
        expect(response.status).toBe(201);
        const body = (await response.json()) as { chat: { recordId: string } };
        return body.chat.recordId;
      };
      const postTurn = async (init: RequestInit = {}): Promise<Response> =>
        target().fetch('/api/ai/chat', {
          method: 'POST',
          headers: json(),
          body: JSON.stringify({ chatId: await createChat(), userMessageId: crypto.randomUUID(), content: 'hi' }),
          ...init,
        });

      it('delivers the first chunk while the model is still streaming', async () => {
        const control = createControllableModel();
        setup.useModel(control.model);
        const response = await postTurn();
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const reader = response.body!.getReader();
        const early = await readStreamUntil(reader, '"delta":"Hello"');
        expect(early).not.toContain(' world');
        control.release();
        const all = await readStreamUntil(reader, null, early);
        expect(all.trimEnd().endsWith('data: [DONE]')).toBe(true);
        const deltas = sseChunks(all).filter((c) => c.type === 'text-delta').map((c) => c.delta);
        expect(deltas).toEqual(['Hello', ' world']);
        await control.finished;
      });

      it('sends X-Asst-Id equal to the start chunk messageId', async () => {
        setup.useModel(createControllableModel({ gated: false }).model);
        const response = await postTurn();
        const assistantId = response.headers.get('x-asst-id');
        expect(assistantId).toBeTruthy();
        const chunks = sseChunks(await response.text());
        expect(chunks[0]).toEqual({ type: 'start', messageId: assistantId });
        expect(chunks.at(-1)?.type).toBe('finish');
        expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
        expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
      });

      it('aborts the model call when the client goes away', async () => {
        const control = createControllableModel();
        setup.useModel(control.model);
        const client = new AbortController();
        const response = await postTurn({ signal: client.signal });
        const reader = response.body!.getReader();
        await readStreamUntil(reader, '"delta":"Hello"');
        client.abort();
        await reader.cancel().catch(() => undefined);
        const reason = await control.aborted;
        expect(reason).toBeDefined();
        control.release(); // nothing may be written after the abort
        expect(target().errors).toEqual([]);
      });

      it('leaves paths outside the base path to the app', async () => {
        const response = await target().fetch(APP_ROUTE);
        if (target().fallsThrough) {
          expect(response.status).toBe(200);
          expect(await response.text()).toBe(APP_ROUTE_TEXT);
        } else {
          expect(response.status).toBe(404);
          expect(((await response.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
        }
      });

      it('keeps JSON error bodies and statuses', async () => {
        const anonymous = await target().fetch('/api/ai/chats', { method: 'POST', headers: json(null), body: '{}' });
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
        expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');

        const unknown = await target().fetch('/api/ai/nowhere', { headers: json() });
        expect(unknown.status).toBe(404);
        expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
      });

      it('answers 400 for a body that is not JSON', async () => {
        const response = await target().fetch('/api/ai/chats', {
          method: 'POST',
          headers: { ...json(), 'content-type': 'text/plain' },
          body: '{not json',
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('VALIDATION');
      });

      it('answers 413 for a body over the limit', async () => {
        const content = 'x'.repeat(setup.maxBodyBytes * 4);
        const response = await target().fetch('/api/ai/chat', {
          method: 'POST',
          headers: json(),
          body: JSON.stringify({ chatId: 'c1', userMessageId: 'm1', content }),
        });
        expect(response.status).toBe(413);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
      });

      it('answers 413 for a chunked body over the limit (no Content-Length to check first)', async () => {
        // Far more than the socket buffers hold, so the handler gives up while the upload is still going on.
        const piece = new TextEncoder().encode('x'.repeat(64 * 1024));
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent === 0) controller.enqueue(new TextEncoder().encode('{"chatId":"c1","userMessageId":"m1","content":"'));
            if (sent++ < 64) controller.enqueue(piece);
            else {
              controller.enqueue(new TextEncoder().encode('"}'));
              controller.close();
            }
          },
        });
        const response = await target().fetch('/api/ai/chat', {
          method: 'POST',
          headers: json(),
          body,
          duplex: 'half',
        } as RequestInit);
        expect(response.status).toBe(413);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
      });
    },
  );
});
