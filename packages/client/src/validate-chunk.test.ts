import { uiMessageChunkSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { REQUIRED_STRING_FIELDS, VALID_CHUNKS, WRONG_OPTIONAL_FIELDS } from './test-support/sample-chunks.js';
import { UI_MESSAGE_CHUNK_TYPES } from './ui-message-chunk.js';
import { validateChunk } from './validate-chunk.js';

const without = (o: Record<string, unknown>, key: string) => {
  const copy = { ...o };
  delete copy[key];
  return copy;
};

/** The corpus of the differential test: valid chunks and every way of breaking them listed in the fixtures. */
function corpus(): unknown[] {
  const values: unknown[] = [null, 1, 'text-delta', [], [VALID_CHUNKS['abort']], {}, { type: 7 }, { type: 'nope' }, { type: 'data' }, { type: 'data-' }];
  for (const chunk of Object.values(VALID_CHUNKS)) {
    values.push(chunk, { ...chunk, extra: { kept: true } });
    for (const key of Object.keys(chunk)) if (key !== 'type') values.push(without(chunk, key));
  }
  for (const [type, fields] of Object.entries(REQUIRED_STRING_FIELDS)) {
    for (const field of fields) values.push({ ...VALID_CHUNKS[type], [field]: 42 }, { ...VALID_CHUNKS[type], [field]: null });
  }
  for (const [type, field, bad] of WRONG_OPTIONAL_FIELDS) values.push({ ...VALID_CHUNKS[type], [field]: bad });
  values.push({ type: 'text-delta', id: 't', delta: 'x', providerMetadata: [] });
  values.push({ type: 'text-delta', id: 't', delta: 'x', providerMetadata: { a: [] } });
  values.push({ type: 'finish', finishReason: undefined }, { type: 'finish', finishReason: 'unknown' });
  return values;
}

describe('validateChunk', () => {
  it('knows exactly 22 literal chunk types', () => {
    expect(new Set(UI_MESSAGE_CHUNK_TYPES).size).toBe(22);
    expect(Object.keys(VALID_CHUNKS).sort()).toEqual([...UI_MESSAGE_CHUNK_TYPES, 'data-*'].sort());
  });

  it.each(Object.entries(VALID_CHUNKS))('accepts a valid %s chunk and returns it untouched', (_type, chunk) => {
    expect(validateChunk(chunk)).toBe(chunk);
  });

  it('keeps extra fields (loose like the SDK schema)', () => {
    const chunk = { type: 'text-delta', id: 't', delta: 'x', future: 1 };
    expect(validateChunk(chunk)).toEqual(chunk);
  });

  it('accepts the minimal form of every type (optional fields absent)', () => {
    const minimal = [
      { type: 'start' },
      { type: 'finish' },
      { type: 'data-x', data: 1 },
      { type: 'tool-output-available', toolCallId: 'c', output: null },
      { type: 'source-url', sourceId: 's', url: 'u' },
    ];
    for (const chunk of minimal) expect(validateChunk(chunk)).toBe(chunk);
  });

  it.each(Object.entries(REQUIRED_STRING_FIELDS).flatMap(([type, fields]) => fields.map((f) => [type, f] as const)))(
    'rejects %s without, or with a non-string, %s',
    (type, field) => {
      const chunk = VALID_CHUNKS[type]!;
      expect(validateChunk(without(chunk, field))).toBeUndefined();
      expect(validateChunk({ ...chunk, [field]: 1 })).toBeUndefined();
    },
  );

  it.each(WRONG_OPTIONAL_FIELDS)('rejects %s with a mistyped optional %s', (type, field, bad) => {
    expect(validateChunk({ ...VALID_CHUNKS[type], [field]: bad })).toBeUndefined();
  });

  it('rejects unknown types, non-objects and a missing type', () => {
    for (const v of [null, undefined, 3, 'x', [], {}, { type: 3 }, { type: 'reasoning' }, { type: 'Text-Delta' }, { type: 'data' }]) {
      expect(validateChunk(v)).toBeUndefined();
    }
  });

  it("decodes ai@5's finishReason 'unknown' (gone in ai@6/7) as 'other', in a copy that keeps the other fields", () => {
    const chunk = { type: 'finish', finishReason: 'unknown', messageMetadata: { n: 1 } };
    expect(validateChunk(chunk)).toEqual({ type: 'finish', finishReason: 'other', messageMetadata: { n: 1 } });
    expect(chunk.finishReason).toBe('unknown');
  });

  it('agrees with the SDK uiMessageChunkSchema on every value of the corpus', async () => {
    const schema = uiMessageChunkSchema();
    const values = corpus();
    expect(values.length).toBeGreaterThan(150);
    const disagreements: unknown[] = [];
    for (const value of values) {
      const sdk = await schema.validate!(value);
      if ((validateChunk(value) !== undefined) !== sdk.success) disagreements.push({ value, sdk: sdk.success });
    }
    expect(disagreements).toEqual([]);
  });
});
