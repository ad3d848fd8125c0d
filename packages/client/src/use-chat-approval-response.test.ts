import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import type { ChatTransport, UIMessage } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { lastAssistantMessageIsCompleteWithApprovalResponses as completeV6 } from 'ai-v6';
import { lastAssistantMessageIsCompleteWithApprovalResponses as completeV7 } from 'ai-v7';
import { describe, expect, it } from 'vitest';
import { approvalsAnswered } from './approval-answers.js';
import { toUiMessages } from './branch-switcher.js';
import type { ApprovalChunks } from './sdk-approval-chunks.js';
import { MAJORS, setup, textOf, turnBodies, until, type ChatLike } from './test-support/use-chat-harness.js';

/**
 * AI SDK 6/7's own approval flow through each major's `Chat` and the real handler: with `approvalChunks: 'sdk'`
 * the paused calls' tool parts are `approval-requested` and `addToolApprovalResponse` answers them.
 */
const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
const notes = {
  name: 'notes',
  columns: [
    { name: 'userId', type: 'string' as const, required: true },
    { name: 'title', type: 'string' as const, required: true },
  ],
  rules: { read: 'own' as const, create: 'own' as const, update: 'own' as const, delete: 'own' as const },
};

/** Step 1: text, one `records_delete` call per note and `extra` calls; step 2: the final text. */
function steps(noteIds: string[], extra: LanguageModelV2StreamPart[]): LanguageModelV2StreamPart[][] {
  return [
    [
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Deleting… ' },
      { type: 'text-end', id: 'a' },
      ...noteIds.map((recordId, i): LanguageModelV2StreamPart => ({
        type: 'tool-call',
        toolCallId: `call-${i + 1}`,
        toolName: 'records_delete',
        input: JSON.stringify({ collection: 'notes', recordId }),
      })),
      ...extra,
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

type Approving = ChatLike & {
  addToolApprovalResponse: (response: { id: string; approved: boolean; reason?: string }) => Promise<void>;
  addToolOutput: (result: { tool: string; toolCallId: string; output: unknown }) => Promise<void>;
};
type Part = Record<string, unknown>;

const SDK_MAJORS = [
  { ...MAJORS[1]!, complete: completeV6 },
  { ...MAJORS[2]!, complete: completeV7 },
];

/** What reaches the `Chat`: every chunk type of every stream the transport returns. */
function recording(seen: string[]) {
  return (transport: ChatTransport<UIMessage>): ChatTransport<UIMessage> => ({
    sendMessages: async (options) =>
      (await transport.sendMessages(options)).pipeThrough(
        new TransformStream({
          transform(chunk, controller) {
            seen.push(chunk.type);
            controller.enqueue(chunk);
          },
        }),
      ),
    reconnectToStream: (options) => transport.reconnectToStream(options),
  });
}

async function pausedChat(
  major: (typeof MAJORS)[number],
  { titles = ['Milk'], extra = [], approvalChunks, sendAutomaticallyWhen }: {
    titles?: string[];
    extra?: LanguageModelV2StreamPart[];
    approvalChunks?: ApprovalChunks;
    sendAutomaticallyWhen: (options: { messages: UIMessage[] }) => boolean;
  },
) {
  let call = 0;
  const noteIds: string[] = [];
  const model = new MockLanguageModelV2({
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of steps(noteIds, extra)[call++]!) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  });
  const chunks: string[] = [];
  const harness = setup(major, [], {
    model,
    collections: [notes],
    service: { tools: { approveTools: ['records.delete'] } },
    transport: approvalChunks ? { approvalChunks } : {},
    wrapTransport: recording(chunks),
  });
  for (const title of titles) noteIds.push((await harness.store.asCaller({ userId: 'alice' }).create('notes', { title })).recordId);
  const { recordId: chatId } = await harness.client().createChat();
  const c = harness.chat(chatId, { sendAutomaticallyWhen }) as Approving;
  await c.sendMessage({ text: 'delete them' });
  return { ...harness, c, chatId, noteIds, model, chunks };
}

const toolParts = (message: UIMessage | undefined) => (message?.parts ?? []).filter((p) => p.type === 'tool-records_delete') as Part[];
const done = (c: ChatLike) => until(() => c.status === 'ready' && textOf(c.messages.at(-1)).includes('All done.'));
/** The tool results the model got in its second call. */
const toolResultsSeen = (model: MockLanguageModelV2) =>
  model.doStreamCalls[1]!.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));

describe.each(SDK_MAJORS)("addToolApprovalResponse with the Chat of $name (approvalChunks: 'sdk')", (major) => {
  it('approve: the part is approval-requested; the answer continues the same message and the tool runs once', async () => {
    const { c, chatId, noteIds, store, net, errors, chunks, client } = await pausedChat(major, { approvalChunks: 'sdk', sendAutomaticallyWhen: major.complete });
    expect(c.status).toBe('ready');
    const paused = c.messages.at(-1)!;
    expect(toolParts(paused)).toMatchObject([{ toolCallId: 'call-1', state: 'approval-requested', approval: { id: 'call-1' } }]);
    expect(paused.parts.some((p) => p.type === 'data-tool-approval')).toBe(true);
    expect(chunks.indexOf('tool-approval-request')).toBe(chunks.indexOf('data-tool-approval') - 1);

    await c.addToolApprovalResponse({ id: 'call-1', approved: true });
    await done(c);
    expect(c.error).toBeUndefined();
    expect(turnBodies(net.seen)).toHaveLength(2);
    expect(turnBodies(net.seen).at(-1)).toEqual({ chatId, trigger: 'approval', approvals: [{ toolCallId: 'call-1', approved: true }] });
    expect(c.messages).toHaveLength(2);
    const last = c.messages.at(-1)!;
    expect(last.id).toBe(paused.id);
    expect(textOf(last)).toBe('Deleting… All done.');
    expect(toolParts(last)).toMatchObject([{ state: 'output-available', output: { deleted: true }, approval: { id: 'call-1', approved: true } }]);
    expect(await store.asServer().find('notes', noteIds[0]!)).toBeNull();
    expect(errors).toEqual([]);
    const stored = await client().getChat(chatId);
    expect(stored.messages.at(-1)).toMatchObject({ recordId: paused.id, data: { status: 'complete', content: 'Deleting… All done.' } });
  });

  it('deny: the call does not run, the part is output-denied, the model is told and answers in the same message', async () => {
    const { c, chatId, noteIds, store, net, model, chunks } = await pausedChat(major, { approvalChunks: 'sdk', sendAutomaticallyWhen: major.complete });
    const paused = c.messages.at(-1)!;
    await c.addToolApprovalResponse({ id: 'call-1', approved: false, reason: 'keep it' });
    await done(c);
    expect(c.error).toBeUndefined();
    expect(turnBodies(net.seen).at(-1)).toEqual({ chatId, trigger: 'approval', approvals: [{ toolCallId: 'call-1', approved: false, reason: 'keep it' }] });
    expect(c.messages.at(-1)!.id).toBe(paused.id);
    expect(toolParts(c.messages.at(-1))).toMatchObject([{ state: 'output-denied', approval: { id: 'call-1', approved: false, reason: 'keep it' } }]);
    expect(chunks).toContain('tool-output-denied');
    expect(JSON.stringify(toolResultsSeen(model))).toMatch(/declined.*keep it/);
    expect(await store.asServer().find('notes', noteIds[0]!)).not.toBeNull();
  });

  it('a step with two calls: one request once both are answered; one runs, the other is denied', async () => {
    const { c, chatId, noteIds, store, net } = await pausedChat(major, {
      titles: ['Milk', 'Eggs'],
      approvalChunks: 'sdk',
      sendAutomaticallyWhen: major.complete,
    });
    expect(toolParts(c.messages.at(-1)).map((p) => p.state)).toEqual(['approval-requested', 'approval-requested']);
    await c.addToolApprovalResponse({ id: 'call-2', approved: false });
    expect(c.status).toBe('ready');
    expect(turnBodies(net.seen)).toHaveLength(1);
    await c.addToolApprovalResponse({ id: 'call-1', approved: true });
    await done(c);
    expect(c.error).toBeUndefined();
    expect(turnBodies(net.seen)).toHaveLength(2);
    expect(turnBodies(net.seen).at(-1)).toEqual({
      chatId,
      trigger: 'approval',
      approvals: [
        { toolCallId: 'call-1', approved: true },
        { toolCallId: 'call-2', approved: false },
      ],
    });
    expect(toolParts(c.messages.at(-1)).map((p) => [p.toolCallId, p.state])).toEqual([
      ['call-1', 'output-available'],
      ['call-2', 'output-denied'],
    ]);
    expect(await store.asServer().find('notes', noteIds[0]!)).toBeNull();
    expect(await store.asServer().find('notes', noteIds[1]!)).not.toBeNull();
  });

  it('a step with a call that needs no approval: the SDK helper never sends, approvalsAnswered does', async () => {
    const userCall: LanguageModelV2StreamPart = { type: 'tool-call', toolCallId: 'call-u', toolName: 'user_current', input: '{}' };
    const { c, chatId, noteIds, store, net } = await pausedChat(major, { extra: [userCall], approvalChunks: 'sdk', sendAutomaticallyWhen: approvalsAnswered });
    const paused = c.messages.at(-1)!;
    expect(paused.parts.filter((p) => p.type.startsWith('tool-')).map((p) => [(p as Part).toolCallId, (p as Part).state])).toEqual([
      ['call-1', 'approval-requested'],
      ['call-u', 'input-available'],
    ]);
    await c.addToolApprovalResponse({ id: 'call-1', approved: true });
    await done(c);
    expect(c.error).toBeUndefined();
    expect(turnBodies(net.seen).at(-1)).toEqual({ chatId, trigger: 'approval', approvals: [{ toolCallId: 'call-1', approved: true }] });
    expect(await store.asServer().find('notes', noteIds[0]!)).toBeNull();
    // The SDK's helper waits for every tool part of the step, also the call chatwire runs after the answer.
    const answered = { ...paused, parts: paused.parts.map((p) => ((p as Part).toolCallId === 'call-1' ? { ...p, state: 'approval-responded', approval: { id: 'call-1', approved: true } } : p)) } as UIMessage;
    expect(major.complete({ messages: [answered] })).toBe(false);
    expect(approvalsAnswered({ messages: [answered] })).toBe(true);
  });

  it("after a reload: toUiMessages(rows, { approvalChunks: 'sdk' }) makes the paused call approval-requested, and the answer continues", async () => {
    const { c, chatId, noteIds, store, net, client, chat } = await pausedChat(major, { approvalChunks: 'sdk', sendAutomaticallyWhen: major.complete });
    const paused = c.messages.at(-1)!;
    const stored = await client().getChat(chatId);
    expect(toolParts(toUiMessages(stored.messages).at(-1))).toMatchObject([{ state: 'input-available' }]);
    const reloaded = toUiMessages(stored.messages, { approvalChunks: 'sdk' }) as UIMessage[];
    expect(toolParts(reloaded.at(-1))).toMatchObject([{ toolCallId: 'call-1', state: 'approval-requested', approval: { id: 'call-1' } }]);
    const again = chat(chatId, { messages: reloaded, sendAutomaticallyWhen: major.complete }) as Approving;
    await again.addToolApprovalResponse({ id: 'call-1', approved: true });
    await done(again);
    expect(again.error).toBeUndefined();
    expect(turnBodies(net.seen).at(-1)).toEqual({ chatId, trigger: 'approval', approvals: [{ toolCallId: 'call-1', approved: true }] });
    expect(again.messages.at(-1)!.id).toBe(paused.id);
    expect(toolParts(again.messages.at(-1))).toMatchObject([{ state: 'output-available', output: { deleted: true } }]);
    expect(await store.asServer().find('notes', noteIds[0]!)).toBeNull();
  });

  it("addToolOutput and approvalsAnswered still work with 'sdk' (the data-tool-approval part stays)", async () => {
    const { c, noteIds, store, net, chatId } = await pausedChat(major, { approvalChunks: 'sdk', sendAutomaticallyWhen: approvalsAnswered });
    await c.addToolOutput({ tool: 'records_delete', toolCallId: 'call-1', output: { approved: false, reason: 'no' } });
    await done(c);
    expect(turnBodies(net.seen).at(-1)).toEqual({ chatId, trigger: 'approval', approvals: [{ toolCallId: 'call-1', approved: false, reason: 'no' }] });
    expect(toolParts(c.messages.at(-1))).toMatchObject([{ state: 'output-available', output: { declined: true, reason: 'no' } }]);
    expect(await store.asServer().find('notes', noteIds[0]!)).not.toBeNull();
  });

  it("without 'sdk' (the default) no SDK approval chunk is added", async () => {
    const { c, chunks } = await pausedChat(major, { sendAutomaticallyWhen: approvalsAnswered });
    expect(chunks).toContain('data-tool-approval');
    expect(chunks).not.toContain('tool-approval-request');
    expect(toolParts(c.messages.at(-1))).toMatchObject([{ state: 'input-available' }]);
  });
});

describe('the Chat of ai@5 (@ai-sdk/react@2) with the default approvalChunks', () => {
  it('gets no tool-approval-request chunk; the addToolResult path is unchanged', async () => {
    const { c, chunks, noteIds, store } = await pausedChat(MAJORS[0]!, { sendAutomaticallyWhen: approvalsAnswered });
    expect(chunks).toContain('data-tool-approval');
    expect(chunks).not.toContain('tool-approval-request');
    expect(toolParts(c.messages.at(-1))).toMatchObject([{ state: 'input-available' }]);
    const answer = (c as unknown as { addToolResult: Approving['addToolOutput'] }).addToolResult.bind(c);
    await answer({ tool: 'records_delete', toolCallId: 'call-1', output: { approved: true } });
    await done(c);
    expect(c.error).toBeUndefined();
    expect(chunks).not.toContain('tool-approval-request');
    expect(chunks).not.toContain('tool-output-denied');
    expect(await store.asServer().find('notes', noteIds[0]!)).toBeNull();
  });
});
