import type { LanguageModelV2 } from '@ai-sdk/provider';
import { createModelRegistry } from '@chatwire/core';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { MockLanguageModelV2 } from 'ai/test';
import { SignJWT } from 'jose';
import { createChatHandler, type ChatHandler } from '../../create-chat-handler.js';

export interface MatrixHandler {
  /** The real `createChatHandler` with a memory store, an HS256 verifier and a swappable model. */
  handler: ChatHandler;
  /** A valid bearer token for the handler. */
  token: string;
  /** The model every allow-listed id uses for the next turns. */
  useModel(model: LanguageModelV2): void;
  /** Body limit the handler enforces (bytes). */
  maxBodyBytes: number;
  /** Errors the handler reported through `onError`. */
  errors: unknown[];
}

const SECRET = 'adapter-matrix-secret-at-least-32-bytes!';

export async function createMatrixHandler(): Promise<MatrixHandler> {
  let current: LanguageModelV2 | undefined;
  const model = (): LanguageModelV2 => {
    if (!current) throw new Error('no model set: call useModel() first');
    return current;
  };
  const delegate = new MockLanguageModelV2({
    doStream: (options) => model().doStream(options),
    doGenerate: (options) => model().doGenerate(options),
  });
  const maxBodyBytes = 4096;
  const errors: unknown[] = [];
  const handler = createChatHandler({
    store: createRecordStore({ driver: createMemoryDriver() }),
    models: createModelRegistry({ fallbackModel: delegate }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    maxBodyBytes,
    onError: (error) => void errors.push(error),
  });
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('matrix-user')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
  return { handler, token, maxBodyBytes, errors, useModel: (next) => void (current = next) };
}
