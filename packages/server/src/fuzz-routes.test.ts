import fc from 'fast-check';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from './adapters/node.js';
import { serveNode } from './adapters/testing/serve-node.js';
import { arbitraryFromSchema } from './test-support/arbitrary-from-schema.js';
import { chatFixture, readSse, SECRET, signToken, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { sendRawRequest } from './test-support/send-raw-request.js';

/**
 * A property-based fuzz run of every route of `GET /openapi.json`, over a real node:http server with the
 * node adapter: bodies drawn from each route's schema and off it (any JSON, broken JSON, deep nesting,
 * prototype keys, too large), odd methods, odd Host headers and request targets, bad or missing tokens,
 * and ownership probes (carol's chat and message ids, sent by alice and bob). Every answer is below 500,
 * every error answer is JSON with a code and a message, no probe reaches carol's rows, and no `onError`
 * (the handler's or the adapter's) is called: all of it is the client's fault. Bounded: a fixed seed and
 * run count.
 */

type Schema = Record<string, unknown>;
type Operation = { method: string; path: string; parameters: Array<{ name: string; schema: Schema }>; body: Schema | null };
type Document = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

const RUNS = 1000;
const ODD_METHODS = ['TRACE', 'OPTIONS', 'HEAD', 'PUT', 'M-SEARCH', 'PROPFIND', 'PURGE', 'QUERY', 'LINK', 'SEARCH'];
const ODD_HOSTS = ['user:pw@evil.test', 'u@evil.test', 'evil.test:99999', '[::1', '[::1]:8080', '', 'a b', 'evil.test/x?y#z', '999.999.999.999', 'xn--zz', '%00'];
const ODD_SEGMENTS = ['%00', '%E0%A4%A', '..%2F..%2Fetc', 'x'.repeat(300), '%F0%9F%98%80', '__proto__', 'constructor', '%2e%2e', '%', ';', '*'];
const HOSTILE_BODIES = [
  '',
  'null',
  '"a string"',
  '[1,2]',
  '{"__proto__":{"admin":true},"title":"x"}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{',
  '\u0000',
  '{"title":"\ud800"}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
  JSON.stringify({ title: 'x'.repeat(70 * 1024) }),
];

function operations(document: Document): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'parameters')
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters ?? []) as Operation['parameters'],
        body: (operation.requestBody?.content?.['application/json']?.schema as Schema | undefined) ?? null,
      })),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { notJson: text.slice(0, 300) };
  }
}

async function badTokens(): Promise<string[]> {
  const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime(1).sign(new TextEncoder().encode(SECRET));
  const foreign = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').sign(new TextEncoder().encode('another-secret-that-is-32-bytes-long!!'));
  const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"alice"}').toString('base64url')}.`;
  return ['Bearer ', 'Bearer x.y.z', `Bearer ${expired}`, `Bearer ${foreign}`, `Bearer ${none}`, 'Basic YWxpY2U6cHc=', `Bearer ${'a'.repeat(9000)}`];
}

describe('fuzzing every route of GET /openapi.json over node:http', () => {
  let f: ChatFixture;
  let server: { url: string; close(): Promise<void> };
  const adapterErrors: unknown[] = [];
  beforeAll(async () => {
    f = chatFixture(scriptedModel([textStep('Fuzzed.')]).model, { handler: { maxBodyBytes: 64 * 1024, bodyTimeoutMs: 5_000 } });
    server = await serveNode(toNodeListener(f.handler, { onError: (error) => adapterErrors.push(error) }) as never);
  });
  afterAll(() => server.close());

  it(`answers ${RUNS} random and hostile requests below 500, errors as JSON, nothing reported, nothing of carol's reached`, async () => {
    const document = (await (await f.request('GET', '/openapi.json', { user: null })).json()) as Document;
    const ops = operations(document);
    const answered = new Map<string, number[]>();
    const components = document.components.schemas;
    const aliceChats = [await f.createChat('alice', 'Alice 1'), await f.createChat('alice', 'Alice 2'), await f.createChat('alice', 'Alice 3')];
    await f.createChat('bob', 'Bob');
    const carolChat = await f.createChat('carol', 'Carol');
    await readSse(await f.request('POST', '/chat', { user: 'carol', body: { chatId: carolChat, userMessageId: 'carol-m1', content: 'Secret' } }));
    const owners = new Map([...aliceChats.map((id) => [id, 'alice'] as const), [carolChat, 'carol'] as const]);
    const carolRows = async () => JSON.stringify([(await f.rows('ai-chats')).filter((r) => r.data.userId === 'carol'), (await f.rows('ai-messages')).filter((r) => r.data.userId === 'carol')]);
    const carolBefore = await carolRows();
    const tokens = {
      alice: `Bearer ${await signToken('alice')}`,
      bob: `Bearer ${await signToken('bob')}`,
      bad: await badTokens(),
    };

    const idArb = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...aliceChats) },
      { weight: 3, arbitrary: fc.constant(carolChat) },
      fc.stringMatching(/^[A-Za-z0-9._:-]{1,24}$/),
      fc.constantFrom(...ODD_SEGMENTS),
    );
    const messageIdArb = fc.oneof(fc.constant('carol-m1'), fc.stringMatching(/^[A-Za-z0-9._:-]{1,24}$/), fc.constantFrom('', '../x', 'a b'));
    const probeArb = fc.record({
      // Turns get a larger share: they are the route with the most to go wrong.
      op: fc.oneof(fc.constantFrom(...ops), fc.constantFrom(...ops.filter((op) => op.path === '/chat'))),
      method: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, fc.constantFrom(...ODD_METHODS)),
      ids: fc.array(idArb, { minLength: 3, maxLength: 3 }),
      host: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, fc.constantFrom(...ODD_HOSTS)),
      form: fc.oneof({ weight: 8, arbitrary: fc.constant('origin' as const) }, fc.constantFrom('absolute' as const, 'credentials' as const, 'double-slash' as const)),
      token: fc.oneof({ weight: 6, arbitrary: fc.constant(tokens.alice) }, fc.constant(tokens.bob), fc.constant(null), fc.constantFrom(...tokens.bad)),
      schemaBody: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
      seed: fc.integer(),
      chatId: idArb,
      userMessageId: messageIdArb,
      offBody: fc.oneof(fc.constantFrom(...HOSTILE_BODIES), fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null')),
      query: fc.array(fc.tuple(fc.constantFrom('limit', 'cursor', 'from', 'to', '__proto__'), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('0', '101', '1e3', '2026-02-30', '%00', '-1'))), { maxLength: 3 }),
    });

    await fc.assert(
      fc.asyncProperty(probeArb, async (probe) => {
        const method = probe.method ?? probe.op.method;
        let param = 0;
        // Each path parameter: an id of alice's or carol's, a random one, or a hostile segment (sent as is).
        const filled = probe.op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(probe.ids[param++ % 3]!).replace(/%25/g, '%'));
        const path = `/api/ai${filled}`;
        const query = probe.query.length === 0 ? '' : `?${probe.query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
        const origin = { origin: '', absolute: 'http://evil.test', credentials: 'http://u:p@evil.test', 'double-slash': '/' }[probe.form];
        let body = '';
        if (probe.op.body && method !== 'GET' && method !== 'HEAD') {
          if (probe.schemaBody) {
            // Half of the turn bodies are submits, so that turns do run; the others are drawn from the whole union.
            const submit = probe.op.path === '/chat' && probe.seed % 2 === 0 && components.SubmitTurnBody;
            // The submit branch without its object-level anyOf (non-blank content or an attachment), which the drawer would take for the whole object.
            const schema = submit ? { ...(submit as Record<string, unknown>), anyOf: undefined } : probe.op.body;
            const drawn = fc.sample(arbitraryFromSchema(schema, components), { seed: probe.seed, numRuns: 1 })[0] as Record<string, unknown>;
            if (probe.op.path === '/chat') {
              // Mostly the default model (a random modelId is MODEL_NOT_ALLOWED before anything else is looked at).
              if (probe.seed % 4 !== 0) delete drawn.modelId;
              // Mostly no attachments (random ids are 400 or 404 before anything else is looked at).
              if (probe.seed % 3 !== 0) delete drawn.attachments;
              Object.assign(drawn, { chatId: probe.chatId, ...('userMessageId' in drawn ? { userMessageId: probe.userMessageId } : {}) });
            }
            body = JSON.stringify(drawn);
          } else body = probe.offBody;
        }
        const head = [
          `${method} ${origin}${path}${query} HTTP/1.1`,
          `Host: ${probe.host ?? 'localhost'}`,
          ...(probe.token === null ? [] : [`Authorization: ${probe.token}`]),
          ...(body === '' ? [] : ['Content-Type: application/json']),
        ].join('\r\n');
        const res = await sendRawRequest(server.url, head, body);
        const context = { head: head.replace(/Bearer \S+/, 'Bearer …'), body: body.slice(0, 200), status: res.status, answer: res.body.slice(0, 300) };
        expect(res.status, JSON.stringify(context)).toBeGreaterThanOrEqual(200);
        expect(res.status, JSON.stringify(context)).toBeLessThan(500);
        if (res.status >= 400 && method !== 'HEAD') {
          expect(res.headers['content-type'], JSON.stringify(context)).toContain('application/json');
          expect(parseJson(res.body), JSON.stringify(context)).toEqual({ error: expect.objectContaining({ code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) }) });
        }
        // Ownership: a chat id of another user, in the path or as a turn's chatId, is never answered with a 2xx.
        const caller = probe.token === tokens.alice ? 'alice' : probe.token === tokens.bob ? 'bob' : null;
        const named = (id: string) => path.includes(id) || (probe.op.path === '/chat' && body.includes(id));
        const foreign = [...owners].some(([id, owner]) => owner !== caller && named(id));
        if (foreign) expect(res.status, JSON.stringify(context)).not.toBeLessThan(300);
        expect([f.errors, adapterErrors], JSON.stringify(context)).toEqual([[], []]);
        const key = `${method} ${probe.op.path}`;
        answered.set(key, [...(answered.get(key) ?? []), res.status]);
      }),
      { seed: 2828, numRuns: RUNS, endOnFailure: true },
    );
    expect(await carolRows()).toBe(carolBefore);
    // The run reached every operation, and turns did run (the fuzz is not all refusals).
    for (const op of ops) expect(answered.get(`${op.method} ${op.path}`)?.length ?? 0, `${op.method} ${op.path}`).toBeGreaterThan(0);
    expect(answered.get('POST /chat')).toContain(200);
  }, 60_000);
});
