import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import type { UIMessage } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { approvalRequestsOf, approvalsAnswered } from './approval-answers.js';
import { MAJORS, setup, textOf, turnBodies, until, type ChatLike } from './test-support/use-chat-harness.js';

/** Tool approval through each major's `Chat`: the app answers with addToolResult / addToolOutput, the transport sends `approval`. */
const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
const notes = {
  name: 'notes',
  columns: [
    { name: 'userId', type: 'string' as const, required: true },
    { name: 'title', type: 'string' as const, required: true },
  ],
  rules: { read: 'own' as const, create: 'own' as const, update: 'own' as const, delete: 'own' as const },
};

function steps(noteId: string): LanguageModelV2StreamPart[][] {
  return [
    [
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Deleting… ' },
      { type: 'text-end', id: 'a' },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'records_delete', input: JSON.stringify({ collection: 'notes', recordId: noteId }) },
      { type: 'finish', finishReason: 'tool-calls', usage },
    ],
    [
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'b', delta: 'All done.' },
      { type: 'text-end', id: 'b' },
      { type: 'finish', finishReason: 'stop', usage },
    ],
  ];
}

type Answering = ChatLike & {
  addToolResult?: (result: { tool: string; toolCallId: string; output: unknown }) => Promise<void>;
  addToolOutput?: (result: { tool: string; toolCallId: string; output: unknown }) => Promise<void>;
};

async function pausedChat(major: (typeof MAJORS)[number]) {
  let call = 0;
  let noteId = '';
  const model = new MockLanguageModelV2({
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of steps(noteId)[call++]!) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  });
  const harness = setup(major, [], { model, collections: [notes], service: { tools: { approveTools: ['records.delete'] } } });
  noteId = (await harness.store.asCaller({ userId: 'alice' }).create('notes', { title: 'Milk' })).recordId;
  const { recordId: chatId } = await harness.client().createChat();
  const c = harness.chat(chatId, { sendAutomaticallyWhen: approvalsAnswered }) as Answering;
  await c.sendMessage({ text: 'delete Milk' });
  return { ...harness, c, chatId, noteId };
}

const toolPart = (message: UIMessage | undefined) => message?.parts.find((p) => p.type === 'tool-records_delete') as Record<string, unknown> | undefined;

describe.each(MAJORS)('tool approval with the Chat of $name', (major) => {
  it('approve: the paused message asks; the answer continues the same message, the tool runs, the model answers', async () => {
    const { c, chatId, noteId, store, net, client } = await pausedChat(major);
    expect(c.status).toBe('ready');
    const paused = c.messages.at(-1)!;
    expect(approvalRequestsOf(paused)).toEqual([{ toolCallId: 'call-1', toolName: 'records_delete', input: { collection: 'notes', recordId: noteId } }]);
    expect(toolPart(paused)).toMatchObject({ state: 'input-available' });
    expect(await store.asServer().find('notes', noteId)).not.toBeNull();

    const answer = (c.addToolOutput ?? c.addToolResult)!.bind(c);
    await answer({ tool: 'records_delete', toolCallId: 'call-1', output: { approved: true } });
    await until(() => c.status === 'ready' && textOf(c.messages.at(-1)).includes('All done.'));
    expect(c.error).toBeUndefined();
    expect(turnBodies(net.seen).at(-1)).toEqual({ chatId, trigger: 'approval', approvals: [{ toolCallId: 'call-1', approved: true }] });
    expect(c.messages).toHaveLength(2);
    const last = c.messages.at(-1)!;
    expect(last.id).toBe(paused.id);
    expect(textOf(last)).toBe('Deleting… All done.');
    expect(toolPart(last)).toMatchObject({ state: 'output-available', output: { deleted: true } });
    expect(await store.asServer().find('notes', noteId)).toBeNull();
    const stored = await client().getChat(chatId);
    expect(stored.messages.at(-1)).toMatchObject({ recordId: paused.id, data: { status: 'complete', content: 'Deleting… All done.' } });
  });

  it('deny: the call does not run; the model is told and answers in the same message', async () => {
    const { c, chatId, noteId, store, net } = await pausedChat(major);
    const answer = (c.addToolOutput ?? c.addToolResult)!.bind(c);
    await answer({ tool: 'records_delete', toolCallId: 'call-1', output: { approved: false, reason: 'keep it' } });
    await until(() => c.status === 'ready' && textOf(c.messages.at(-1)).includes('All done.'));
    expect(turnBodies(net.seen).at(-1)).toEqual({ chatId, trigger: 'approval', approvals: [{ toolCallId: 'call-1', approved: false, reason: 'keep it' }] });
    expect(toolPart(c.messages.at(-1))).toMatchObject({ state: 'output-available', output: { declined: true, reason: 'keep it' } });
    expect(await store.asServer().find('notes', noteId)).not.toBeNull();
  });
});
