import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatwireError } from '@chatwire/storage';
import { BUILT_IN_TOOLS, READ_ONLY_TOOLS } from './built-in-tool-names.js';
import { createToolCatalog } from './create-tool-catalog.js';
import type { ChatwireTool } from './tool-types.js';
import { ALICE, runTurn, scriptedModel, seededStore } from './tool-test-kit.js';

const echo: ChatwireTool<{ text: string }, string> = {
  description: 'Echo text back',
  inputSchema: z.object({ text: z.string().describe('Text to echo') }),
  execute: ({ text }) => text,
};

function configurationError(fn: () => unknown): ChatwireError {
  try {
    fn();
  } catch (error) {
    if (ChatwireError.is(error, 'CONFIGURATION')) return error;
    throw error;
  }
  throw new Error('expected a CONFIGURATION error');
}

async function offeredNames(catalog: ReturnType<typeof createToolCatalog>): Promise<string[]> {
  const store = await seededStore();
  const model = scriptedModel([{ text: 'hi' }]);
  await runTurn(model, catalog.forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: new AbortController().signal }));
  return (model.doStreamCalls[0]?.tools ?? []).map((tool) => tool.name);
}

describe('createToolCatalog: what the model is offered', () => {
  it('offers all eight built-ins by default, under wire names', async () => {
    const catalog = createToolCatalog();
    expect(catalog.names).toEqual([...BUILT_IN_TOOLS]);
    expect(await offeredNames(catalog)).toEqual([
      'schema_list', 'schema_describe', 'records_query', 'records_get',
      'records_create', 'records_update', 'records_delete', 'user_current',
    ]);
  });

  it('trims the offer to the allow-list, given in either name form', async () => {
    const catalog = createToolCatalog({ allow: ['records_query', 'schema.list'] });
    expect(catalog.names).toEqual(['schema.list', 'records.query']);
    expect(await offeredNames(catalog)).toEqual(['schema_list', 'records_query']);
  });

  it('READ_ONLY_TOOLS offers no tool that writes; custom tools are added', async () => {
    const names = await offeredNames(createToolCatalog({ allow: READ_ONLY_TOOLS, custom: { 'text.echo': echo } }));
    expect(names).toEqual(['schema_list', 'schema_describe', 'records_query', 'records_get', 'user_current', 'text_echo']);
  });

  it('sends every built-in input field to the model with a description', async () => {
    const store = await seededStore();
    const model = scriptedModel([{ text: 'hi' }]);
    await runTurn(model, createToolCatalog().forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: new AbortController().signal }));
    for (const tool of model.doStreamCalls[0]?.tools ?? []) {
      if (tool.type !== 'function') throw new Error('function tools only');
      expect(tool.description?.length).toBeGreaterThan(40);
      const schema = tool.inputSchema as { type: string; properties: Record<string, { description?: string }>; additionalProperties: boolean };
      expect(schema.type).toBe('object');
      expect(schema.additionalProperties).toBe(false);
      for (const [field, property] of Object.entries(schema.properties)) {
        expect(property.description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });
});

describe('createToolCatalog: configuration errors', () => {
  it('rejects unknown allow names and lists the known ones', () => {
    const error = configurationError(() => createToolCatalog({ allow: ['records.query', 'records.drop'] }));
    expect(error.message).toContain("unknown tool 'records.drop'");
    expect(error.message).toContain('records.query');
  });

  it('rejects custom names providers would refuse', () => {
    for (const name of ['has space', 'emoji😀', '', 'x'.repeat(65), 'a/b']) {
      expect(configurationError(() => createToolCatalog({ custom: { [name]: echo } })).message).toContain('providers reject');
    }
    expect(createToolCatalog({ custom: { 'my-tool.v2': echo, ['y'.repeat(64)]: echo } }).names).toContain('my-tool.v2');
  });

  it('rejects a custom tool that clashes with a built-in in either name form', () => {
    for (const name of ['records.query', 'records_query']) {
      const error = configurationError(() => createToolCatalog({ custom: { [name]: echo } }));
      expect(error.message).toContain("clashes with the built-in tool 'records.query'");
    }
  });

  it('rejects two custom tools offered under the same wire name', () => {
    const error = configurationError(() => createToolCatalog({ custom: { 'a.b': echo, a_b: echo } }));
    expect(error.message).toBe(
      "createToolCatalog: custom tool 'a_b' clashes with the custom tool 'a.b' (both are offered as 'a_b'); rename it",
    );
  });

  it('rejects custom tools without a description, execute or object schema', () => {
    expect(configurationError(() => createToolCatalog({ custom: { t: { ...echo, description: ' ' } } })).message).toContain('description');
    const noExecute = { description: 'd', inputSchema: z.object({}) } as unknown as ChatwireTool;
    expect(configurationError(() => createToolCatalog({ custom: { t: noExecute } })).message).toContain('execute');
    expect(configurationError(() => createToolCatalog({ custom: { t: { ...echo, inputSchema: z.string() } } })).message).toContain('object inputSchema');
    const notZod = { ...echo, inputSchema: { type: 'object' } } as unknown as ChatwireTool;
    expect(configurationError(() => createToolCatalog({ custom: { t: notZod } })).message).toContain('zod 4');
  });

  it('rejects bad limits and a users collection without a store', () => {
    expect(configurationError(() => createToolCatalog({ toolResultCap: 10 })).message).toContain('toolResultCap');
    expect(configurationError(() => createToolCatalog({ maxQueryLimit: 0 })).message).toContain('maxQueryLimit');
    expect(configurationError(() => createToolCatalog({ maxQueryLimit: 10, defaultQueryLimit: 11 })).message).toContain('defaultQueryLimit');
    expect(configurationError(() => createToolCatalog({ usersCollection: 'users' })).message).toContain("needs the record store as option 'store'");
  });
});
