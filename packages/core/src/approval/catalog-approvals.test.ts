import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolCatalog } from '../tools/create-tool-catalog.js';
import type { ToolSource } from '../tools/tool-source.js';
import { ALICE, seededStore } from '../tools/tool-test-kit.js';
import { approvalRuleOf, isApprovalNeeded } from './approval-rule.js';

function crm(): ToolSource {
  return {
    namespaces: [{ server: 'crm', prefix: 'mcp_crm_' }],
    async open() {
      const tool = (wireName: string) => ({ wireName, server: 'crm', description: 'A tool', inputSchema: { type: 'object', properties: {} }, execute: async () => 'ok' });
      return { tools: [tool('mcp_crm_find'), tool('mcp_crm_remove')], problems: [], close: async () => undefined };
    },
  };
}

async function turnTools(catalog: ReturnType<typeof createToolCatalog>) {
  const store = await seededStore();
  return (await catalog.openTurn!({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: new AbortController().signal })).tools;
}

describe('which tools of a turn ask for approval', () => {
  it('approveTools marks built-ins (dotted or wire names) and MCP tools by name; the others ask nothing', async () => {
    const catalog = createToolCatalog({ approveTools: ['records.delete', 'records_update', 'mcp_crm_remove'], sources: [crm()] });
    const tools = await turnTools(catalog);
    const asking = Object.keys(tools).filter((name) => approvalRuleOf(tools[name]) !== undefined);
    expect(asking.sort()).toEqual(['mcp_crm_remove', 'records_delete', 'records_update']);
  });

  it('a custom tool’s needsApproval (true or a function of input and caller) is kept on its turn tool', async () => {
    const catalog = createToolCatalog({
      allow: [],
      custom: {
        'notes.purge': { description: 'Purge', inputSchema: z.object({ all: z.boolean() }), needsApproval: (input: { all: boolean }) => input.all, execute: () => 'ok' },
        'notes.wipe': { description: 'Wipe', inputSchema: z.object({}), needsApproval: true, execute: () => 'ok' },
        'notes.read': { description: 'Read', inputSchema: z.object({}), execute: () => 'ok' },
      },
    });
    const tools = await turnTools(catalog);
    expect(await isApprovalNeeded(tools.notes_purge, { toolCallId: 'c', input: { all: true } }, ALICE)).toBe(true);
    expect(await isApprovalNeeded(tools.notes_purge, { toolCallId: 'c', input: { all: false } }, ALICE)).toBe(false);
    expect(await isApprovalNeeded(tools.notes_wipe, { toolCallId: 'c', input: {} }, ALICE)).toBe(true);
    expect(await isApprovalNeeded(tools.notes_read, { toolCallId: 'c', input: {} }, ALICE)).toBe(false);
  });
});
