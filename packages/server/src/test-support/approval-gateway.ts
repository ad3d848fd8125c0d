import { createModelRegistry } from '@chatwire/core';
import { chatCompletionsText, GATEWAY, sseResponse, type WireUsage } from '@chatwire/core/testing';
import { createRecordStore, type RecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { http } from 'msw';
import { createChatHandler, type ChatHandler, type ChatHandlerOptions } from '../create-chat-handler.js';
import { BASE, SECRET, signToken } from './chat-fixture.js';

/** The OpenAI-compatible model of the allow-list (provider_c), served by the real provider package. */
export const MODEL_ID = 'gamma-oss-120b';
const USAGE: WireUsage = { input: 20, output: 10, cached: 0, reasoning: 0 };

export const NOTES = {
  name: 'notes',
  columns: [
    { name: 'userId', type: 'string', required: true },
    { name: 'title', type: 'string', required: true },
  ],
  rules: { read: 'own', create: 'own', update: 'own', delete: 'own' },
} as const;

/** A queued provider answer, given the request body the provider got. */
export type Answer = (body: Record<string, unknown>, request: Request) => Response | Promise<Response>;

/**
 * A chat-completions provider behind msw: answers are taken from `queue` in order (a missing one is a 418),
 * every request body is kept in `requests`.
 */
export function approvalGateway() {
  const requests: Array<Record<string, unknown>> = [];
  const queue: Answer[] = [];
  const handler = http.post(`${GATEWAY.provider_c}/chat/completions`, async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    requests.push(body);
    const answer = queue.shift();
    if (!answer) return new Response(JSON.stringify({ error: { message: 'no answer queued' } }), { status: 418 });
    return answer(body, request);
  });
  return { handler, requests, queue };
}

/** A streamed step that calls these tools (in one assistant message), finish_reason tool_calls. */
export function toolCalls(calls: Array<{ id: string; name: string; input: Record<string, unknown> }>): Answer {
  return (body) => {
    const model = String(body.model);
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
      data: { id: 'chatcmpl-approval', object: 'chat.completion.chunk', created: 1741569952, model, choices, ...extra },
    });
    return sseResponse([
      chunk([{ index: 0, delta: { role: 'assistant', content: 'I will do that.' }, finish_reason: null }]),
      ...calls.map((call, index) =>
        chunk([
          {
            index: 0,
            delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }] },
            finish_reason: null,
          },
        ]),
      ),
      chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
      chunk([], { usage: { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output } }),
      { data: '[DONE]' },
    ]);
  };
}

/** A streamed text answer. */
export function text(words: string[]): Answer {
  return (body) => chatCompletionsText(String(body.model), words, USAGE);
}

export interface ApprovalApp {
  handler: ChatHandler;
  store: RecordStore;
  errors: unknown[];
  post(path: string, body: unknown, user?: string): Promise<Response>;
  get(path: string, user?: string): Promise<Response>;
}

/** A handler on the real provider package (provider_c at the gateway) with `records.delete` needing approval. */
export function approvalApp(options: Partial<ChatHandlerOptions> & { store?: RecordStore } = {}): ApprovalApp {
  const store = options.store ?? createRecordStore({ driver: createMemoryDriver() });
  const errors: unknown[] = [];
  const handler = createChatHandler({
    store,
    models: createModelRegistry({ env: { PROVIDER_C_BASE_URL: GATEWAY.provider_c, APP_OWNER_JWT: 'owner-jwt' } }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    maxRetries: 0,
    onError: (error) => errors.push(error),
    tools: { approveTools: ['records.delete'] },
    ...options,
  } as ChatHandlerOptions);
  store.register(NOTES);
  const send = async (method: string, path: string, body: unknown, user: string) =>
    handler(
      new Request(`${BASE}${path}`, {
        method,
        headers: { authorization: `Bearer ${await signToken(user)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  return {
    handler,
    store,
    errors,
    post: (path, body, user = 'alice') => send('POST', path, body, user),
    get: (path, user = 'alice') => send('GET', path, undefined, user),
  };
}
