import { API_SCHEMAS } from '@chatwire/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { buildOpenApiDocument } from './build-openapi-document.js';

/**
 * A client generated from `GET /openapi.json` accepts exactly the bodies the server accepts: each request
 * body component, turned back into a validator from the document alone (`z.fromJSONSchema`, a generic JSON
 * Schema reader), gives the same verdict as the schema that validates the requests, over random bodies.
 */

const document = buildOpenApiDocument({ basePath: '/api/ai' }) as { components: { schemas: Record<string, unknown> } };
/** The document's components as `$defs`, so a plain JSON Schema reader resolves their `$ref`s. */
const defs = JSON.parse(JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', '#/$defs/')) as Record<string, unknown>;

function fromDocument(component: string): z.ZodType {
  return z.fromJSONSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', $ref: `#/$defs/${component}`, $defs: defs } as never);
}

const ABSENT = Symbol('absent');
const id = fc.oneof(fc.constantFrom('c1', 'u1', 'a.b_c:d-e', 'x'.repeat(128)), fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/));
const notId = fc.oneof(fc.constantFrom('', 'a b', '../x', 'x'.repeat(129), 'é'), fc.string());
const text = fc.oneof(fc.constantFrom('hi', ' x ', '', ' ', '\n\t', '\u00a0', '\u2028', '\ufeff'), fc.string(), fc.string({ unit: 'grapheme' }));
const other = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), fc.array(fc.string(), { maxLength: 2 }));
const field = (...values: Array<fc.Arbitrary<unknown>>) => fc.oneof(fc.constant(ABSENT), ...values);

/** An object with any of the fields, each absent, well-formed, malformed or of another type. */
function bodies(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(fields).map((drawn) => Object.fromEntries(Object.entries(drawn).filter(([, value]) => value !== ABSENT)));
}

const turnBodies = bodies({
  chatId: field(id, notId, other),
  trigger: field(fc.constantFrom('submit', 'edit', 'regenerate', 'redo', '', 'Submit', null), other),
  userMessageId: field(id, notId, other),
  content: field(text, other),
  modelId: field(fc.constantFrom('alpha-sonnet-4-6', ''), fc.string(), other),
  extra: field(fc.string(), other),
});
const titleBodies = bodies({ title: field(text, fc.string({ maxLength: 500 }), other) });

const cases: Array<[string, z.ZodType, fc.Arbitrary<Record<string, unknown>>]> = [
  ['TurnBody', API_SCHEMAS.requests.turn, turnBodies],
  ['CreateChatBody', API_SCHEMAS.requests.createChat, titleBodies],
  ['RenameChatBody', API_SCHEMAS.requests.renameChat, titleBodies],
];

describe('the request bodies of GET /openapi.json', () => {
  it.each(cases)('%s: the document accepts exactly what the server accepts', (component, server, arbitrary) => {
    const client = fromDocument(component);
    fc.assert(
      fc.property(arbitrary, (body) => {
        expect({ body, accepted: client.safeParse(body).success }).toEqual({ body, accepted: server.safeParse(body).success });
      }),
      { seed: 28, numRuns: 2_000 },
    );
  });

  it.each([
    [{ chatId: 'c', userMessageId: 'u', content: 'hi' }, true],
    [{ chatId: 'c', trigger: null, userMessageId: 'u', content: 'hi' }, true],
    [{ chatId: 'c', userMessageId: 'u', content: ' \n ' }, false],
    [{ chatId: 'c', userMessageId: 'u' }, false],
    [{ chatId: 'c', content: 'hi' }, false],
    [{ chatId: 'c', trigger: 'edit', userMessageId: 'u', content: 'hi' }, true],
    [{ chatId: 'c', trigger: 'edit', content: 'hi' }, false],
    [{ chatId: 'c', trigger: 'edit', userMessageId: 'u', content: '' }, false],
    [{ chatId: 'c', trigger: 'regenerate' }, true],
    [{ chatId: 'c', trigger: 'regenerate', userMessageId: 'u' }, true],
    [{ chatId: 'c', trigger: 'regenerate', content: 'hi' }, false],
    [{ chatId: 'c', trigger: 'redo', userMessageId: 'u', content: 'hi' }, false],
  ])('TurnBody %j: %s, in the document and on the server', (body, accepted) => {
    expect(fromDocument('TurnBody').safeParse(body).success).toBe(accepted);
    expect(API_SCHEMAS.requests.turn.safeParse(body).success).toBe(accepted);
  });
});
