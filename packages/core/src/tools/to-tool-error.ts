import { ChatwireError } from '@chatwire/storage';

/** Reports errors that are not `ChatwireError`s (a failing driver, a bug in a custom tool). */
export type ToolErrorReporter = (error: unknown, info: { toolName: string }) => void;

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * The error a tool call fails with, as the model and the stream see it (`tool-output-error`).
 * - A `ChatwireError` keeps its code and message, prefixed with the tool's catalog name
 *   (`records.get: no record 'x' in collection 'notes'`).
 * - An abort passes through untouched.
 * - Anything else is reported to `onError`; a built-in tool then fails with a generic INTERNAL error
 *   (driver messages may hold connection details), a custom tool keeps its own message.
 */
export function toToolError(
  error: unknown,
  toolName: string,
  options: { builtIn: boolean; onError?: ToolErrorReporter | undefined },
): unknown {
  if (ChatwireError.is(error)) {
    if (error.message.startsWith(`${toolName}:`)) return error;
    return new ChatwireError(error.code, `${toolName}: ${error.message}`, { cause: error, details: error.details });
  }
  if (isAbortError(error)) return error;
  options.onError?.(error, { toolName });
  if (!options.builtIn && error instanceof Error) return error;
  return new ChatwireError(
    'INTERNAL',
    `${toolName}: failed unexpectedly; try again later or tell the user that this tool is not working`,
    { cause: error },
  );
}
