import { ChatwireError } from '@chatwire/storage';

/**
 * A request body whose stream failed before its end: the client went away mid-body (Node's `aborted`, an
 * `AbortError`) or sent a body the server could not parse (a malformed chunked encoding). The client's
 * fault, answered as a 400 nobody may receive and never reported as a server error; `cause` is the stream's.
 */
export function bodyCutOff(cause: unknown): ChatwireError {
  return new ChatwireError('VALIDATION', 'Request body ended before it was complete (the connection closed)', {
    cause,
    details: { field: 'body' },
  });
}
