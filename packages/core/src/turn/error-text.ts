import { APICallError, RetryError } from 'ai';
import { ChatwireError } from '@chatwire/storage';

/**
 * Tool errors go to the client with their real message: the model sees it too and it names what to fix.
 * Only the message: never a stack.
 */
export function toolErrorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return 'The tool failed.';
}

export const ERROR_TEXTS = {
  providerStatus: (status: number) => `The model provider returned an error (status ${status}).`,
  providerStatusRetried: (status: number, attempts: number) =>
    `The model provider returned an error (status ${status}) after ${attempts} attempts.`,
  providerUnreachable: 'The model provider could not be reached.',
  connectionLost: 'The connection to the model provider was lost.',
  modelFailed: 'The model call failed.',
} as const;

/**
 * Provider and internal errors get a safe message: a status code at most, no body, stack, URL or secret.
 * A provider error retried until the retries ran out names the last status and the attempts; a connection
 * that dropped after the provider answered 2xx (the SDK reports "Failed to process successful response")
 * says the connection was lost.
 */
export function safeErrorText(error: unknown): string {
  if (RetryError.isInstance(error)) {
    const last = error.lastError;
    if (APICallError.isInstance(last) && last.statusCode !== undefined && last.statusCode >= 400) {
      return ERROR_TEXTS.providerStatusRetried(last.statusCode, error.errors.length);
    }
    return safeErrorText(last);
  }
  if (APICallError.isInstance(error)) {
    if (error.statusCode === undefined) return connectionDropped(error.cause) ? ERROR_TEXTS.connectionLost : ERROR_TEXTS.providerUnreachable;
    if (error.statusCode < 400) return ERROR_TEXTS.connectionLost;
    return ERROR_TEXTS.providerStatus(error.statusCode);
  }
  if (connectionDropped(error)) return ERROR_TEXTS.connectionLost;
  // CONFIGURATION and INTERNAL are server-side (5xx over HTTP): their messages stay in onError.
  if (ChatwireError.is(error) && error.code !== 'INTERNAL' && error.code !== 'CONFIGURATION') return error.message;
  return ERROR_TEXTS.modelFailed;
}

/** undici's error when a response body's socket closes early: `TypeError: terminated`. */
function connectionDropped(error: unknown): boolean {
  return error instanceof TypeError && error.message.startsWith('terminated');
}
