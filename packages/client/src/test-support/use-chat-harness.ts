import { Chat as ChatAi5 } from '@ai-sdk/react';
import type { LanguageModelV2 } from '@ai-sdk/provider';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler, type ChatHandlerOptions } from '@chatwire/server';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import type { ChatTransport, UIMessage } from 'ai';
import { SignJWT } from 'jose';
import { Chat as ChatAi6 } from 'react-v3';
import { Chat as ChatAi7 } from 'react-v4';
import { createChatClient } from '../create-chat-client.js';
import { createChatwireTransport, type ChatwireTransportOptions } from '../create-chatwire-transport.js';
import { handlerFetch } from './handler-fetch.js';
import { heldModel } from './held-model.js';

/**
 * Test support for the useChat lifecycle tests: each AI SDK major's `Chat` (the class `useChat` wraps, from
 * `@ai-sdk/react` 2, 3 and 4 over `ai` 5, 6 and 7) driving chatwire's transport against the real handler.
 */

/** What the tests use of a `Chat`; the three majors' classes differ only in what the tests do not touch. */
export interface ChatLike {
  readonly messages: UIMessage[];
  readonly status: 'submitted' | 'streaming' | 'ready' | 'error';
  readonly error: Error | undefined;
  sendMessage(message: { text: string; messageId?: string }): Promise<void>;
  regenerate(options?: { messageId?: string }): Promise<void>;
  stop(): Promise<void>;
  resumeStream(): Promise<void>;
}
type ChatClass = new (init: {
  id: string;
  transport: ChatTransport<UIMessage>;
  generateId: () => string;
  messages?: UIMessage[];
  sendAutomaticallyWhen?: (options: { messages: UIMessage[] }) => boolean;
}) => ChatLike;

export interface Major {
  name: string;
  Chat: ChatClass;
}

/** The `Chat` class of every AI SDK major; the tests run once per entry (`describe.each(MAJORS)`). */
export const MAJORS: Major[] = [
  { name: 'ai@5 (@ai-sdk/react@2)', Chat: ChatAi5 as unknown as ChatClass },
  { name: 'ai@6 (@ai-sdk/react@3)', Chat: ChatAi6 as unknown as ChatClass },
  { name: 'ai@7 (@ai-sdk/react@4)', Chat: ChatAi7 as unknown as ChatClass },
];

const SECRET = 'client-lifecycle-secret-32-bytes-long!!';
export const BASE = 'http://localhost/api/ai';

export interface SetupOptions {
  /** Handler options on top of the defaults (memory store, HS256, no summarizer). */
  service?: Partial<ChatHandlerOptions>;
  /** Another model than the held one (which still answers `answers` in `held`). */
  model?: LanguageModelV2;
  /** Collections of the record store (the tools' data). */
  collections?: Parameters<typeof createRecordStore>[0]['collections'];
  /** Transport options on top of the connection. */
  transport?: Partial<ChatwireTransportOptions>;
  /** Wraps each `Chat`'s transport (to record what reaches the `Chat`). */
  wrapTransport?: (transport: ChatTransport<UIMessage>) => ChatTransport<UIMessage>;
}

/** A handler on an in-memory store, answered by a held model, with a client and a `Chat` factory of `major`. */
export function setup(major: Major, answers: Array<string | Error>, options: SetupOptions = {}) {
  const held = heldModel(answers);
  const store = createRecordStore({ driver: createMemoryDriver(), ...(options.collections ? { collections: options.collections } : {}) });
  const errors: unknown[] = [];
  const handler = createChatHandler({
    store,
    models: createModelRegistry({ env: {}, fallbackModel: options.model ?? held.model }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    onError: (error: unknown) => errors.push(error),
    ...options.service,
  } as ChatHandlerOptions);
  const net = handlerFetch(handler);
  const token = (sub: string) =>
    new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  const connection = (user: string) => ({ baseUrl: BASE, getToken: () => token(user), fetch: net.fetch });
  const client = (user = 'alice') => createChatClient(connection(user));
  let n = 0;
  const chat = (
    id: string,
    init: { user?: string; messages?: UIMessage[]; sendAutomaticallyWhen?: (options: { messages: UIMessage[] }) => boolean } = {},
  ): ChatLike =>
    new major.Chat({
      id,
      transport: (options.wrapTransport ?? ((t) => t))(createChatwireTransport({ ...connection(init.user ?? 'alice'), ...options.transport })),
      generateId: () => `m-${++n}`,
      ...(init.messages ? { messages: init.messages } : {}),
      ...(init.sendAutomaticallyWhen ? { sendAutomaticallyWhen: init.sendAutomaticallyWhen } : {}),
    });
  return { held, store, errors, net, client, chat };
}

export const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');

/** Stored messages as `[recordId, role, content]`. */
export const rows = (stored: { messages: Array<{ recordId: string; data: { role: string; content: string } }> }) =>
  stored.messages.map((m) => [m.recordId, m.data.role, m.data.content]);

/** A Chat's messages as `[id, role, text]`, comparable with `rows`. */
export const shown = (chat: ChatLike) => chat.messages.map((m) => [m.id, m.role, textOf(m)]);

/** The bodies of every `POST /chat` the handler got, in order. */
export const turnBodies = (seen: Array<{ method: string; path: string; body: unknown }>) =>
  seen.filter((r) => r.method === 'POST' && r.path === '/chat').map((r) => r.body);

export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}
