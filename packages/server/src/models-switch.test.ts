import { createModelRegistry } from '@chatwire/core';
import {
  anthropicText,
  anthropicToolCall,
  chatCompletionsText,
  chatCompletionsToolCall,
  GATEWAY,
  responsesText,
  responsesToolCall,
  type WireUsage,
} from '@chatwire/core/testing';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatHandler } from './create-chat-handler.js';
import { readSse, SECRET, signToken } from './test-support/chat-fixture.js';

// Switching model in the middle of a chat: turn 1 runs on one wire format and calls a tool, turn 2 runs on
// another and must send that tool history in a form the second provider's real API accepts.

type Wire = 'a' | 'b' | 'c';
const MODEL: Record<Wire, { id: string; vendor: string; provider: string }> = {
  a: { id: 'alpha-sonnet-4-6', vendor: 'claude-sonnet-4-5', provider: 'provider_a' },
  b: { id: 'beta-5.4', vendor: 'gpt-5.4', provider: 'provider_b' },
  c: { id: 'gamma-oss-120b', vendor: 'openai/gpt-oss-120b', provider: 'provider_c' },
};
const CALL_ID: Record<Wire, string> = { a: 'toolu_01A09q90qw90lq917835lq9', b: 'call_Rb4kZq0pWm2nX7yT5vL8sD1e', c: 'call_3fK9xQ2mN8pL4vR7tY1wZ6cB' };
const USAGE: WireUsage = { input: 30, output: 12, cached: 0, reasoning: 0 };
const INPUT = { collection: 'notes' };
const TOOL = 'records_query';

interface Captured {
  wire: Wire;
  body: Record<string, unknown>;
}
const requests: Captured[] = [];
let queue: Array<(model: string) => Response> = [];
const next = (wire: Wire) => async ({ request }: { request: Request }) => {
  const body = (await request.json()) as Record<string, unknown>;
  requests.push({ wire, body });
  const answer = queue.shift();
  if (!answer) return new Response(JSON.stringify({ error: { message: 'no answer queued' } }), { status: 418 });
  return answer(String(body.model));
};
const server = setupServer(
  http.post(`${GATEWAY.provider_a}/messages`, next('a')),
  http.post(`${GATEWAY.provider_b}responses`, next('b')),
  http.post(`${GATEWAY.provider_c}/chat/completions`, next('c')),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  requests.length = 0;
  queue = [];
});
afterAll(() => server.close());

const toolCall: Record<Wire, (model: string) => Response> = {
  a: (model) => anthropicToolCall(model, { id: CALL_ID.a, name: TOOL, input: INPUT }, USAGE),
  b: (model) => responsesToolCall(model, { callId: CALL_ID.b, name: TOOL, arguments: JSON.stringify(INPUT) }, USAGE),
  c: (model) => chatCompletionsToolCall(model, { id: CALL_ID.c, name: TOOL, arguments: JSON.stringify(INPUT) }, USAGE),
};
const text: Record<Wire, (words: string[]) => (model: string) => Response> = {
  a: (words) => (model) => anthropicText(model, words, USAGE),
  b: (words) => (model) => responsesText(model, words, USAGE),
  c: (words) => (model) => chatCompletionsText(model, words, USAGE),
};

const NOTES = {
  name: 'notes',
  columns: [
    { name: 'userId', type: 'string', required: true },
    { name: 'title', type: 'string', required: true },
  ],
  rules: { read: 'own', create: 'own', update: 'own', delete: 'own' },
} as const;

async function setup() {
  const store = createRecordStore({ driver: createMemoryDriver() });
  store.register(NOTES);
  await store.asCaller({ userId: 'alice' }).create('notes', { title: 'Milk' });
  const handler = createChatHandler({
    store,
    models: createModelRegistry({
      providers: {
        provider_a: { baseURL: GATEWAY.provider_a },
        provider_b: { baseURL: GATEWAY.provider_b },
        provider_c: { baseURL: GATEWAY.provider_c },
      },
      appOwnerToken: 'app-owner-jwt',
      modelMap: Object.fromEntries(Object.values(MODEL).map((m) => [m.id, m.vendor])),
    }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    maxRetries: 0,
  });
  const token = await signToken('alice');
  const post = (path: string, body: unknown) =>
    handler(
      new Request(`http://localhost/api/ai${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const created = (await (await post('/chats', {})).json()) as { chat: { recordId: string } };
  const turn = async (userMessageId: string, content: string, modelId: string) => {
    const res = await post('/chat', { chatId: created.chat.recordId, userMessageId, content, modelId });
    expect(res.status).toBe(200);
    return readSse(res);
  };
  return { store, turn };
}

type Block = Record<string, unknown>;
type Message = { role: string; content: string | Block[]; [key: string]: unknown };

/** The Messages API: roles alternate, every tool_use has an object input and its tool_result first thing in the next user message. */
function expectAnthropicAccepts(body: Record<string, unknown>): Array<[unknown, unknown]> {
  const messages = body.messages as Message[];
  expect(messages[0]!.role).toBe('user');
  messages.forEach((m, i) => i > 0 && expect(m.role).not.toBe(messages[i - 1]!.role));
  const pairs: Array<[unknown, unknown]> = [];
  messages.forEach((m, i) => {
    if (typeof m.content === 'string') return;
    for (const block of m.content) {
      if (block.type === 'text') expect(String(block.text).trim()).not.toBe('');
      if (block.type !== 'tool_use') continue;
      expect(String(block.id)).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input)).toBe(true);
      const reply = messages[i + 1]!;
      expect(reply.role).toBe('user');
      const results = (reply.content as Block[]).filter((b) => b.type === 'tool_result');
      expect((reply.content as Block[]).slice(0, results.length)).toEqual(results);
      expect(results.map((r) => r.tool_use_id)).toContain(block.id);
      pairs.push([block.id, block.input]);
    }
  });
  // A history with tool blocks needs the tools defined.
  expect((body.tools as Block[]).map((t) => t.name)).toContain(TOOL);
  return pairs;
}

/** Responses with store off: full function_call items (no item_reference), each followed by its output by call_id. */
function expectResponsesAccepts(body: Record<string, unknown>): Array<[unknown, unknown]> {
  expect(body.store).toBe(false);
  const input = body.input as Block[];
  expect(input.some((item) => item.type === 'item_reference')).toBe(false);
  const pairs: Array<[unknown, unknown]> = [];
  input.forEach((item, i) => {
    if (item.type !== 'function_call') return;
    expect(typeof item.arguments).toBe('string');
    const outputs = input.slice(i + 1).filter((o) => o.type === 'function_call_output' && o.call_id === item.call_id);
    expect(outputs).toHaveLength(1);
    expect(typeof outputs[0]!.output).toBe('string');
    pairs.push([item.call_id, JSON.parse(String(item.arguments))]);
  });
  const outputIds = input.filter((o) => o.type === 'function_call_output').map((o) => o.call_id);
  expect(outputIds).toEqual(pairs.map(([id]) => id));
  return pairs;
}

/** Chat completions: an assistant message with tool_calls, then one role tool message per call id. */
function expectChatCompletionsAccepts(body: Record<string, unknown>): Array<[unknown, unknown]> {
  const messages = body.messages as Array<Message & { tool_calls?: Block[]; tool_call_id?: string }>;
  const pairs: Array<[unknown, unknown]> = [];
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || !m.tool_calls) return;
    const following = messages.slice(i + 1);
    const toolMessages = following.slice(0, following.findIndex((f) => f.role !== 'tool') >>> 0);
    expect(toolMessages.map((t) => t.tool_call_id).sort()).toEqual(m.tool_calls.map((c) => c.id).sort());
    for (const call of m.tool_calls) {
      expect(call.type).toBe('function');
      const fn = call.function as { name: string; arguments: string };
      expect(typeof fn.arguments).toBe('string');
      pairs.push([call.id, JSON.parse(fn.arguments)]);
    }
  });
  const toolIds = messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
  expect(toolIds).toEqual(pairs.map(([id]) => id));
  return pairs;
}

const ACCEPTS: Record<Wire, (body: Record<string, unknown>) => Array<[unknown, unknown]>> = {
  a: expectAnthropicAccepts,
  b: expectResponsesAccepts,
  c: expectChatCompletionsAccepts,
};

const PAIRS: Array<[Wire, Wire]> = [
  ['a', 'b'],
  ['a', 'c'],
  ['b', 'a'],
  ['b', 'c'],
  ['c', 'a'],
  ['c', 'b'],
];

describe('switching model mid-chat across wire formats (real provider packages, msw)', () => {
  it.each(PAIRS)('%s -> %s: the tool history of turn 1 goes to the new provider in a form it accepts', async (x, y) => {
    const { store, turn } = await setup();
    queue = [toolCall[x], text[x](['You have', ' one note.'])];
    const first = await turn('u1', 'list my notes', MODEL[x].id);
    expect(first.chunks.find((c) => c.type === 'tool-output-available')).toBeDefined();
    expect(first.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });

    queue = [text[y](['It is', ' Milk.'])];
    const second = await turn('u2', 'and its title?', MODEL[y].id);
    expect(second.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });

    expect(requests.map((r) => r.wire)).toEqual([x, x, y]);
    expect(requests.map((r) => r.body.model)).toEqual([MODEL[x].vendor, MODEL[x].vendor, MODEL[y].vendor]);
    const last = requests[2]!.body;
    // The call made on X, with its input as an object and its result, reaches Y.
    expect(ACCEPTS[y](last)).toEqual([[CALL_ID[x], INPUT]]);
    const sent = JSON.stringify(last);
    expect(sent).toContain('Milk');
    expect(sent).toContain('You have one note.');

    const turns = (await store.asServer().query('ai-turns')).records.map((r) => r.data);
    expect(turns.map((t) => [t.modelId, t.provider])).toEqual([
      [MODEL[x].id, MODEL[x].provider],
      [MODEL[y].id, MODEL[y].provider],
    ]);
    const stored = JSON.stringify((await store.asServer().query('ai-messages')).records);
    for (const m of Object.values(MODEL)) expect(stored).not.toContain(m.vendor);
  });
});

describe('tool call ids another provider would reject', () => {
  it.each<[Wire]>([['a'], ['b']])(
    'c -> %s: a compatible server’s id like functions.records_query:0 goes out as an id the new provider accepts',
    async (y) => {
      const { turn } = await setup();
      const oddId = 'functions.records_query:0';
      queue = [(model) => chatCompletionsToolCall(model, { id: oddId, name: TOOL, arguments: JSON.stringify(INPUT) }, USAGE), text.c(['One note.'])];
      await turn('u1', 'list my notes', MODEL.c.id);
      queue = [text[y](['Milk.'])];
      const second = await turn('u2', 'and its title?', MODEL[y].id);
      expect(second.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
      const [[id, input]] = ACCEPTS[y](requests[2]!.body) as [[string, unknown]];
      expect(id).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
      expect(input).toEqual(INPUT);
    },
  );
});
