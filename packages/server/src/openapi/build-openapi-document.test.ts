import { API_SCHEMAS } from '@chatwire/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from '../test-support/chat-fixture.js';
import { scriptedModel, textStep } from '../test-support/scripted-model.js';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any>; securitySchemes: Record<string, any> };
  security: unknown[];
  servers: Array<{ url: string }>;
};

async function fetchDocument(f = chatFixture(scriptedModel([]).model)): Promise<Doc> {
  const res = await f.request('GET', '/openapi.json', { user: null });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  return (await res.json()) as Doc;
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without a token', async () => {
    const document = await fetchDocument();
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.servers).toEqual([{ url: '/api/ai' }]);
    // The validator does reject a broken document (a response without its required description).
    const broken = { ...document, paths: { ...document.paths, '/x': { get: { responses: { '200': {} } } } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('describes every route, with bearer auth except on itself', async () => {
    const document = await fetchDocument();
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        'GET /chats',
        'POST /chats',
        'GET /chats/{id}',
        'PATCH /chats/{id}',
        'DELETE /chats/{id}',
        'POST /chats/{id}/stop',
        'GET /chats/{id}/stream',
        'POST /chats/{id}/active',
        'POST /chat',
        'GET /models',
        'GET /usage',
        'PUT /chats/{id}/messages/{mid}/feedback',
        'DELETE /chats/{id}/messages/{mid}/feedback',
        'POST /chats/{id}/shares',
        'DELETE /shares/{shareId}',
        'GET /shared/{token}',
        'GET /search',
        'GET /tools',
        'GET /openapi.json',
        'POST /attachments',
        'GET /attachments/{id}',
        'DELETE /attachments/{id}',
        'GET /attachments/{id}/content',
      ].sort(),
    );
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/openapi.json']!.get.security).toEqual([]);
    expect(document.paths['/shared/{token}']!.get.security).toEqual([]);
  });

  it('describes the turn stream as text/event-stream with X-Asst-Id, and errors as { error: { code, message, retryAfter? } }', async () => {
    const document = await fetchDocument();
    const turn = document.paths['/chat']!.post;
    expect(Object.keys(turn.responses['200'].content)).toEqual(['text/event-stream']);
    expect(turn.responses['200'].headers['X-Asst-Id'].schema).toEqual({ type: 'string' });
    expect(turn.responses['429'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const error = document.components.schemas.Error;
    expect(error.required).toEqual(['error']);
    expect(error.properties.error.required).toEqual(['code', 'message']);
    expect(Object.keys(error.properties.error.properties)).toEqual(['code', 'message', 'retryAfter']);
  });

  it('takes the request rules from the schemas that validate requests', async () => {
    const document = await fetchDocument();
    const { TurnBody, SubmitTurnBody, EditTurnBody, RegenerateTurnBody, RenameChatBody } = document.components.schemas;
    // One branch per trigger, each its own component.
    const triggers = Object.keys(API_SCHEMAS.requests.turnByTrigger);
    expect(triggers.slice(0, 3)).toEqual(['submit', 'edit', 'regenerate']);
    const branch = (trigger: string) => `#/components/schemas/${trigger[0]!.toUpperCase()}${trigger.slice(1)}TurnBody`;
    expect(TurnBody.oneOf).toEqual(triggers.map((trigger) => ({ $ref: branch(trigger) })));
    // A body without `trigger` is a submit; edit and regenerate name theirs.
    expect(SubmitTurnBody.required).toEqual(['chatId', 'userMessageId', 'content']);
    expect(SubmitTurnBody.properties.trigger).toEqual({ default: 'submit', anyOf: [{ type: 'string', const: 'submit' }, { type: 'null' }] });
    // A submit's content may be empty when it has attachments: non-blank content, or at least one attachment.
    expect(SubmitTurnBody.properties.content).toEqual({ type: 'string' });
    expect(SubmitTurnBody.anyOf).toEqual([
      { type: 'object', properties: { content: { type: 'string', pattern: '\\S' } } },
      { type: 'object', required: ['attachments'], properties: { attachments: { type: 'array', minItems: 1 } } },
    ]);
    expect(EditTurnBody.required).toEqual(['chatId', 'trigger', 'userMessageId', 'content']);
    expect(EditTurnBody.properties.trigger).toEqual({ type: 'string', const: 'edit' });
    expect(RegenerateTurnBody.required).toEqual(['chatId', 'trigger']);
    expect(RegenerateTurnBody.properties.content).toEqual({ not: {} });
    expect(SubmitTurnBody.properties.chatId.pattern).toBe('^[A-Za-z0-9._:-]{1,128}$');
    expect(RenameChatBody.properties.title).toMatchObject({ type: 'string', minLength: 1, maxLength: 500 });
    const limit = document.paths['/chats']!.get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } });
    const from = document.paths['/usage']!.get.parameters.find((p: { name: string }) => p.name === 'from');
    expect(from.schema).toMatchObject({ type: 'string', format: 'date' });
  });

  it('answers another method with 405', async () => {
    const f = chatFixture(scriptedModel([]).model);
    const res = await f.request('POST', '/openapi.json', { user: null, body: {} });
    expect(res.status).toBe(405);
  });
});

describe('the response schemas match what the routes answer', () => {
  it('for chats, a turn, models, stop and delete', async () => {
    const f = chatFixture(scriptedModel([textStep('Hello there')]).model);
    const { responses } = API_SCHEMAS;
    const created = await f.request('POST', '/chats', { body: { title: 'Trip' } });
    const { chat } = responses.chat.parse(await created.json());
    const turn = await f.request('POST', '/chat', { body: { chatId: chat.recordId, userMessageId: 'u1', content: 'hi' } });
    expect((await readSse(turn)).done).toBe(true);
    responses.chatList.parse(await (await f.request('GET', '/chats')).json());
    const full = responses.chatWithMessages.parse(await (await f.request('GET', `/chats/${chat.recordId}`)).json());
    expect(full.messages.map((m) => m.data.role)).toEqual(['user', 'assistant']);
    responses.usage.parse(await (await f.request('GET', '/usage')).json());
    responses.models.parse(await (await f.request('GET', '/models')).json());
    responses.stopped.parse(await (await f.request('POST', `/chats/${chat.recordId}/stop`)).json());
    responses.error.parse(await (await f.request('GET', '/chats/nope')).json());
    responses.deleted.parse(await (await f.request('DELETE', `/chats/${chat.recordId}`)).json());
  });
});
