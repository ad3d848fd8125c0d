import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatwireError } from '@chatwire/storage';
import { createToolCatalog } from './create-tool-catalog.js';
import type { SourceTool, ToolSource } from './tool-source.js';
import { ALICE, seededStore } from './tool-test-kit.js';

/** A tool source in memory: the seam's contract without any protocol behind it. */
function memorySource(server: string, tools: Partial<SourceTool>[], options: { fail?: Error; closed?: string[] } = {}): ToolSource {
  return {
    namespaces: [{ server, prefix: `mcp_${server}_` }],
    async open() {
      if (options.fail) throw options.fail;
      return {
        tools: tools.map((tool) => ({
          wireName: `mcp_${server}_x`,
          server,
          description: 'A tool',
          inputSchema: { type: 'object', properties: {} },
          execute: async () => 'ok',
          ...tool,
        })),
        problems: [],
        close: async () => void options.closed?.push(server),
      };
    },
  };
}

async function open(catalog: ReturnType<typeof createToolCatalog>, signal = new AbortController().signal) {
  const store = await seededStore();
  return catalog.openTurn!({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: signal });
}

function configurationError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (ChatwireError.is(error, 'CONFIGURATION')) return error.message;
    throw error;
  }
  throw new Error('expected a CONFIGURATION error');
}

describe('tool sources in the catalog', () => {
  it('adds source tools beside the built-ins, each with its origin, and closes the source', async () => {
    const closed: string[] = [];
    const catalog = createToolCatalog({ allow: ['records.query'], sources: [memorySource('crm', [{ wireName: 'mcp_crm_find' }], { closed })] });
    expect(await open(catalog).then((turn) => turn.offered.map((tool) => tool.name))).toEqual(['records_query']);
    const all = createToolCatalog({ allow: ['records.query', 'mcp_crm_*'], sources: [memorySource('crm', [{ wireName: 'mcp_crm_find' }], { closed })] });
    const turn = await open(all);
    expect(turn.offered.map(({ name, source }) => [name, source])).toEqual([
      ['records_query', 'built-in'],
      ['mcp_crm_find', 'mcp'],
    ]);
    expect(turn.offered[1]).toMatchObject({ server: 'crm' });
    await turn.close();
    expect(closed).toEqual(['crm']);
  });

  it('an allow-list names source tools one by one or by their server wildcard', async () => {
    const source = memorySource('crm', [{ wireName: 'mcp_crm_find' }, { wireName: 'mcp_crm_delete' }]);
    const one = await open(createToolCatalog({ allow: ['mcp_crm_find'], sources: [source] }));
    expect(Object.keys(one.tools)).toEqual(['mcp_crm_find']);
    const every = await open(createToolCatalog({ sources: [source] }));
    expect(Object.keys(every.tools)).toContain('mcp_crm_delete');
  });

  it('a source that fails to open leaves only its own tools out, as a problem', async () => {
    const catalog = createToolCatalog({
      allow: ['mcp_crm_*', 'mcp_down_*'],
      sources: [memorySource('crm', [{ wireName: 'mcp_crm_find' }]), memorySource('down', [], { fail: new Error('connection refused') })],
    });
    const turn = await open(catalog);
    expect(Object.keys(turn.tools)).toEqual(['mcp_crm_find']);
    expect(turn.problems).toEqual([{ server: 'down', error: new Error('connection refused') }]);
  });

  it('a source tool that fails, or outlives its deadline ignoring its signal, fails with a message for the model', async () => {
    const catalog = createToolCatalog({
      toolTimeoutMs: 50,
      sources: [
        memorySource('crm', [
          { wireName: 'mcp_crm_broken', execute: async () => Promise.reject(new Error('no such customer')) },
          { wireName: 'mcp_crm_hangs', execute: () => new Promise(() => undefined) },
          { wireName: 'mcp_crm_big', execute: async () => 'x'.repeat(50_000) },
        ]),
      ],
    });
    const turn = await open(catalog);
    const run = (name: string) => turn.tools[name]!.execute!({}, { toolCallId: '1', messages: [] }) as Promise<unknown>;
    await expect(run('mcp_crm_broken')).rejects.toThrow('no such customer');
    await expect(run('mcp_crm_hangs')).rejects.toThrow('mcp_crm_hangs: did not finish within 50 ms');
    expect(await run('mcp_crm_big')).toMatch(/\[chatwire: result cut to fit 30000 bytes/);
  });

  it('refuses at start-up a tool inside a source namespace, or two overlapping namespaces, naming both', () => {
    const custom = { mcp_crm_find: { description: 'Mine', inputSchema: z.object({}), execute: () => 'x' } };
    expect(configurationError(() => createToolCatalog({ custom, sources: [memorySource('crm', [])] }))).toMatch(
      /'mcp_crm_find' clashes with MCP server 'crm'/,
    );
    expect(configurationError(() => createToolCatalog({ sources: [memorySource('a', []), memorySource('a_b', [])] }))).toMatch(
      /MCP servers 'a' and 'a_b' could offer tools of the same name/,
    );
  });
});
