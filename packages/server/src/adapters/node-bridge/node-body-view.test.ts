import { createHash } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { chatFixture, signToken } from '../../test-support/chat-fixture.js';
import { pngBytes } from '../../test-support/sample-files.js';
import { scriptedModel } from '../../test-support/scripted-model.js';
import { toNodeListener } from '../node.js';
import { serveNode } from '../testing/serve-node.js';
import type { NodeRequest } from './incoming-message-to-request.js';
import { nodeBodyView, viewsBody } from './node-body-view.js';

const servers: Array<{ close(): Promise<void> }> = [];
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** POSTs `parts` one write each (a file's head first, as clients send it) and reads the JSON answer. */
function post(url: string, agent: Agent, headers: Record<string, string>, parts: Buffer[]): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const length = parts.reduce((n, p) => n + p.length, 0);
    const req = httpRequest(`${url}/api/ai/attachments?filename=a.png`, { method: 'POST', agent, headers: { ...headers, 'content-length': length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
}

describe('viewsBody', () => {
  const req = (method: string, extra: Partial<NodeRequest> = {}) => ({ method, readableEnded: false, headers: {}, ...extra }) as NodeRequest;

  it.each([
    ['POST', {}, true],
    ['PATCH', {}, true],
    ['PUT', {}, true],
    ['DELETE', {}, true],
    ['HEAD', {}, false],
    ['POST', { readableEnded: true }, false],
    ['POST', { readableEnded: true, body: { title: 'parsed by express.json()' } }, false],
    ['POST', { readableEnded: true, body: Buffer.from('read by express.raw()') }, false],
  ])('%s %j -> %s', (method, extra, expected) => {
    expect(viewsBody(req(method, extra as Partial<NodeRequest>))).toBe(expected);
  });
});

describe('uploads through the node adapter (read off the socket)', () => {
  it('store exactly the bytes sent, upload after upload on one keep-alive connection, raw and multipart', async () => {
    const f = chatFixture(scriptedModel([]).model);
    const server = await serveNode(toNodeListener(f.handler) as never);
    servers.push(server);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const authorization = `Bearer ${await signToken('alice')}`;
    for (let i = 0; i < 3; i++) {
      const png = Buffer.concat([pngBytes(4, 4, [i, 2, 3]), Buffer.alloc(200_000 + i, 7)]);
      const raw = await post(server.url, agent, { authorization, 'content-type': 'image/png' }, [png.subarray(0, 8), png.subarray(8)]);
      expect(raw.status).toBe(201);
      expect(raw.body.attachment).toMatchObject({ size: png.length, sha256: sha256(png), mediaType: 'image/png' });

      const boundary = `b${i}xyz`;
      const multipart = [
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="m.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ];
      const form = await post(server.url, agent, { authorization, 'content-type': `multipart/form-data; boundary=${boundary}` }, multipart);
      expect(form.status).toBe(201);
      expect(form.body.attachment).toMatchObject({ size: png.length, sha256: sha256(png), filename: 'm.png' });
    }
    const stored = await f.request('GET', `/attachments/${(await post(server.url, agent, { authorization, 'content-type': 'image/png' }, [pngBytes()])).body.attachment.attachmentId}/content`);
    expect(Buffer.from(await stored.arrayBuffer())).toEqual(pngBytes());
    expect(f.errors).toEqual([]);
  });
});

describe('nodeBodyView', () => {
  it('hands the body out one way only: the stream, or the chunks', async () => {
    const seen: Array<{ viaStream: boolean; chunksAfter?: string; bodyAfter?: null; size: number }> = [];
    const server = await serveNode((req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const view = nodeBodyView(req, res, undefined);
        let size = 0;
        if (req.headers['x-way'] === 'stream') {
          const reader = view.body!.getReader();
          for (let r = await reader.read(); !r.done; r = await reader.read()) size += r.value.byteLength;
          let chunksAfter = '';
          try {
            view.bodyChunks!(1000);
          } catch (error) {
            chunksAfter = (error as Error).message;
          }
          seen.push({ viaStream: true, chunksAfter, size });
        } else {
          for await (const chunk of view.bodyChunks!(1000)) size += chunk.byteLength;
          seen.push({ viaStream: false, bodyAfter: view.body as null, size });
        }
        res.end();
      })();
    });
    servers.push(server);
    for (const way of ['stream', 'chunks']) {
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(`${server.url}/x`, { method: 'POST', headers: { 'x-way': way, 'content-type': 'image/png' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(Buffer.alloc(70_000, 1));
      });
    }
    expect(seen).toEqual([
      { viaStream: true, chunksAfter: 'The request body was already taken', size: 70_000 },
      { viaStream: false, bodyAfter: null, size: 70_000 },
    ]);
  });
});
