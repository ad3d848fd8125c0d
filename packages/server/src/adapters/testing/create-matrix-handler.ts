import type { LanguageModel } from 'ai';
import type { ChatHandlerLike } from '../chat-handler-like.js';
import { createStandInHandler, STAND_IN_TOKEN } from './create-stand-in-handler.js';

export interface MatrixHandler {
  handler: ChatHandlerLike;
  /** A valid bearer token for the handler. */
  token: string;
  /** The model the next turns use. */
  useModel(model: LanguageModel): void;
  /** Body limit the handler enforces (bytes). */
  maxBodyBytes: number;
}

export async function createMatrixHandler(): Promise<MatrixHandler> {
  let current: LanguageModel | undefined;
  const maxBodyBytes = 4096;
  const handler = createStandInHandler({
    maxBodyBytes,
    model: () => {
      if (!current) throw new Error('no model set: call useModel() first');
      return current;
    },
  });
  return { handler, token: STAND_IN_TOKEN, maxBodyBytes, useModel: (model) => void (current = model) };
}
