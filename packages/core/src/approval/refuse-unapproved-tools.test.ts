import { ChatwireError } from '@chatwire/storage';
import { tool, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withApprovalRule } from './approval-rule.js';
import { APPROVAL_UNSUPPORTED_TEXT, refuseUnapprovedTools } from './refuse-unapproved-tools.js';

const runs: string[] = [];
const make = (name: string) => tool({ description: name, inputSchema: z.object({ title: z.string() }), execute: async ({ title }) => (runs.push(`${name}:${title}`), 'ok') });
const options = { toolCallId: 'c1', messages: [], abortSignal: new AbortController().signal };

describe('refuseUnapprovedTools (the AI SDK streamText path, which cannot pause)', () => {
  it('a tool that needs approval refuses to run; a rule that lets a call through runs it; other tools are untouched', async () => {
    runs.length = 0;
    const plain = make('plain');
    const tools: ToolSet = {
      always: withApprovalRule(make('always'), true),
      sometimes: withApprovalRule(make('sometimes'), (input: { title: string }, context) => input.title === 'x' && context.userId === 'alice'),
      plain,
    };
    const safe = refuseUnapprovedTools(tools, { userId: 'alice' });
    expect(safe.plain).toBe(plain);
    const refused = await safe.always!.execute!({ title: 'a' }, options).then(
      () => null,
      (error: unknown) => error,
    );
    expect(ChatwireError.is(refused, 'FORBIDDEN')).toBe(true);
    expect((refused as Error).message).toBe(APPROVAL_UNSUPPORTED_TEXT);
    await expect(safe.sometimes!.execute!({ title: 'x' }, options)).rejects.toThrow(APPROVAL_UNSUPPORTED_TEXT);
    expect(await safe.sometimes!.execute!({ title: 'y' }, options)).toBe('ok');
    expect(runs).toEqual(['sometimes:y']);
  });

  it('a rule that throws counts as asking: the tool does not run', async () => {
    runs.length = 0;
    const tools: ToolSet = {
      odd: withApprovalRule(make('odd'), () => {
        throw new Error('rule failed');
      }),
    };
    await expect(refuseUnapprovedTools(tools, { userId: 'alice' }).odd!.execute!({ title: 'a' }, options)).rejects.toThrow(APPROVAL_UNSUPPORTED_TEXT);
    expect(runs).toEqual([]);
  });
});
