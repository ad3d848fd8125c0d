/**
 * The three lines of the turn benches, all over the same `BenchModel`:
 * - R0: the floor. The model's parts re-encoded as UI message SSE by hand (no AI SDK pipeline at all).
 * - R1: the bare AI SDK route, `streamText({ model, messages }).toUIMessageStreamResponse()`.
 * - R2: chatwire, `createChatHandler` with the memory store, a real HS256 JWT, a stored 200-message
 *   history, default compaction and tools, persistence at finish.
 * R0 and R1 get the same history in the request body (as a client of a bare route sends it).
 */
import { streamText, UI_MESSAGE_STREAM_HEADERS, type ModelMessage } from 'ai';
import { AI_MESSAGES, AI_TURNS, createModelRegistry, userMessageRecordId } from '@chatwire/core';
import { createChatHandler, type ChatHandler, type ChatHandlerOptions } from '@chatwire/server';
import { createRecordStore, type RecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import type { BenchModel, ModelPart } from './bench-model.js';
import { historyTexts, QUESTION } from './history.js';
import { signHs256 } from './sign-hs256.js';

export type FetchHandler = (request: Request) => Promise<Response>;

const encoder = new TextEncoder();
const HEAD = 'data: {"type":"start"}\n\ndata: {"type":"start-step"}\n\n';
const TAIL = 'data: {"type":"finish-step"}\n\ndata: {"type":"finish","finishReason":"stop"}\n\ndata: [DONE]\n\n';

/** R0's hand-written mapping of one model part to UI SSE text ('' for parts that send nothing). */
export function r0Encode(part: ModelPart): string {
  switch (part.type) {
    case 'text-delta':
      return `data: {"type":"text-delta","id":${JSON.stringify(part.id)},"delta":${JSON.stringify(part.delta)}}\n\n`;
    case 'text-start':
    case 'text-end':
      return `data: {"type":"${part.type}","id":${JSON.stringify(part.id)}}\n\n`;
    default:
      return '';
  }
}
export const R0_HEAD = HEAD;
export const R0_TAIL = TAIL;

/** The prompt a bare route passes to the provider: system-less, text-only. */
export function toPrompt(messages: ModelMessage[]): Parameters<BenchModel['doStream']>[0]['prompt'] {
  return messages.map((m) => ({ role: m.role, content: [{ type: 'text', text: String(m.content) }] })) as never;
}

export function createR0Handler(model: BenchModel): FetchHandler {
  return async (request) => {
    const { messages } = (await request.json()) as { messages: ModelMessage[] };
    const { stream } = await model.doStream({ prompt: toPrompt(messages), abortSignal: request.signal });
    const reader = stream.getReader();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(HEAD));
      },
      async pull(controller) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            controller.enqueue(encoder.encode(TAIL));
            return controller.close();
          }
          const text = r0Encode(value);
          if (text) return controller.enqueue(encoder.encode(text));
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
  };
}

export function createR1Handler(model: BenchModel): FetchHandler {
  return async (request) => {
    const { messages } = (await request.json()) as { messages: ModelMessage[] };
    return streamText({ model, messages, abortSignal: request.signal }).toUIMessageStreamResponse();
  };
}

export const BENCH_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
export const R2_URL = 'http://127.0.0.1/api/ai/chat';

export interface R2Fixture {
  handler: ChatHandler;
  store: RecordStore;
  token: string;
  errors: unknown[];
  /** A new chat holding `historySize` stored messages. */
  createChat(): Promise<string>;
  /** The body of a turn in `chatId` (a fresh userMessageId each time). */
  turnBody(chatId: string): { body: string; userMessageId: string };
  request(chatId: string, signal?: AbortSignal): { request: Request; userMessageId: string };
  /** The recordId a turn's user row is stored under (message ids are scoped to their owner). */
  userRecordId(userMessageId: string): string;
  /** Deletes what a turn stored, so the chat is back at `historySize` messages. */
  forget(userMessageId: string, assistantMessageId: string | null): Promise<void>;
}

let sequence = 0;

export interface R2Options {
  historySize?: number;
  /** Store limits (the defaults, 512 KiB per value and 1 MiB per record, refuse answers over ~0.5M chars). */
  limits?: { maxValueBytes?: number; maxRecordBytes?: number };
  /** More handler options (a variant of R2: Redis, limits, telemetry, titles...). */
  handler?: Partial<ChatHandlerOptions>;
}

export async function createR2Fixture(model: BenchModel, options: R2Options = {}): Promise<R2Fixture> {
  const historySize = options.historySize ?? 200;
  const store = createRecordStore({ driver: createMemoryDriver(), ...options.limits });
  const errors: unknown[] = [];
  const userId = 'bench-user';
  const handler = createChatHandler({
    store,
    models: createModelRegistry({ fallbackModel: model }),
    auth: { secret: BENCH_SECRET },
    onError: (error) => errors.push(error),
    ...(options.handler as object),
  } as ChatHandlerOptions);
  await handler.ready();
  const token = signHs256({ sub: userId }, BENCH_SECRET, 24 * 3600);
  const texts = historyTexts(historySize);
  const server = store.asServer();

  const turnBody = (chatId: string) => {
    const userMessageId = `u-${process.pid}-${++sequence}`;
    return { userMessageId, body: JSON.stringify({ chatId, userMessageId, content: QUESTION }) };
  };

  return {
    handler,
    store,
    token,
    errors,
    async createChat() {
      const chatId = (await handler.service.createChat({ userId })).recordId;
      let i = 0;
      for (const { role, text } of texts) {
        const parts = role === 'user' ? [{ type: 'text', text }] : [{ type: 'step-start' }, { type: 'text', text, state: 'done' }];
        await server.create(AI_MESSAGES, { chatId, userId, role, content: text, parts }, { recordId: `h-${chatId}-${i++}` });
      }
      return chatId;
    },
    turnBody,
    request(chatId, signal) {
      const { body, userMessageId } = turnBody(chatId);
      const request = new Request(R2_URL, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        ...(signal ? { signal } : {}),
      });
      return { request, userMessageId };
    },
    // The bench's ids are fresh: the row is stored under the client's id (see core's message-record-id.ts).
    userRecordId: (userMessageId) => userMessageId,
    async forget(userMessageId, assistantMessageId) {
      await server.delete(AI_MESSAGES, userMessageId).catch(() => undefined);
      await server.delete(AI_MESSAGES, userMessageRecordId(userId, userMessageId)).catch(() => undefined);
      if (assistantMessageId) {
        await server.delete(AI_MESSAGES, assistantMessageId).catch(() => undefined);
        await server.delete(AI_TURNS, assistantMessageId).catch(() => undefined);
      }
    },
  };
}
