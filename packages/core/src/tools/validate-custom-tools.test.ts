import { ChatwireError } from '@chatwire/storage';
import { tool as toolV6 } from 'ai-v6';
import { tool as toolV7 } from 'ai-v7';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatwireTool } from './tool-types.js';
import { validateCustomTools } from './validate-custom-tools.js';

const inputSchema = z.object({ id: z.string() });
const execute = async ({ id }: { id: string }) => `deleted ${id}`;

function refusal(tools: Record<string, unknown>): string {
  try {
    validateCustomTools(tools as Record<string, ChatwireTool>);
  } catch (error) {
    expect(ChatwireError.is(error, 'CONFIGURATION')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a CONFIGURATION error');
}

describe('validateCustomTools: tools that ask for approval', () => {
  it.each([
    ['an AI SDK 6 tool with needsApproval: true', toolV6({ description: 'Deletes a record.', inputSchema, needsApproval: true, execute })],
    ['an AI SDK 6 tool with a needsApproval function', toolV6({ description: 'Deletes a record.', inputSchema, needsApproval: async () => true, execute })],
    ['an AI SDK 7 tool with needsApproval: true', toolV7({ description: 'Deletes a record.', inputSchema, needsApproval: true, execute })],
    ['a plain object with a needsApproval function', { description: 'Deletes a record.', inputSchema, needsApproval: () => false, execute }],
  ])('%s is accepted (the turn asks the user before it runs)', (_label, definition) => {
    const checked = validateCustomTools({ 'records.purge': definition as unknown as ChatwireTool });
    expect(checked['records.purge']).toBe(definition);
  });

  it.each([['a string', 'yes'], ['a number', 1], ['an object', {}]])('needsApproval as %s is refused at start-up, naming the tool', (_label, value) => {
    expect(refusal({ 'records.purge': { description: 'Deletes a record.', inputSchema, needsApproval: value, execute } })).toBe(
      "createToolCatalog: custom tool 'records.purge' has a needsApproval that is neither true, false nor a function",
    );
  });

  it('a tool with needsApproval: false, or without it, is accepted', () => {
    const checked = validateCustomTools({
      plain: { description: 'Echoes.', inputSchema, execute },
      never: toolV6({ description: 'Echoes.', inputSchema, needsApproval: false, execute }) as unknown as ChatwireTool,
    });
    expect(Object.keys(checked)).toEqual(['plain', 'never']);
  });
});
