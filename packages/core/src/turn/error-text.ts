import { APICallError } from 'ai';
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

/**
 * Provider and internal errors get a safe message: a status code at most, no body, stack, URL or secret.
 */
export function safeErrorText(error: unknown): string {
  if (APICallError.isInstance(error)) {
    return error.statusCode === undefined
      ? 'The model provider could not be reached.'
      : `The model provider returned an error (status ${error.statusCode}).`;
  }
  // CONFIGURATION and INTERNAL are server-side (5xx over HTTP): their messages stay in onError.
  if (ChatwireError.is(error) && error.code !== 'INTERNAL' && error.code !== 'CONFIGURATION') return error.message;
  return 'The model call failed.';
}
