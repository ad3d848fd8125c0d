import { ChatwireError } from '@chatwire/storage';
import { connectionLost, isConnectionLost } from './connection-lost.js';

/**
 * Turns PostgreSQL errors caused by the data (SQLSTATE class 22 "data exception" and 54 "program limit
 * exceeded", e.g. an index row too large) into ChatwireError('VALIDATION') naming the collection, so bad
 * input never surfaces as a 500. A lost connection becomes ChatwireError('UNAVAILABLE'). Anything else
 * is rethrown unchanged.
 */
export function mapPgError(error: unknown, collection: string | undefined): unknown {
  if (isConnectionLost(error)) return connectionLost(error);
  if (ChatwireError.is(error)) return error;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || !/^(22|54)/.test(code)) return error;
  const where = collection === undefined ? 'postgres driver' : `collection ${JSON.stringify(collection)}`;
  const message = error instanceof Error ? error.message : String(error);
  const hint = code.startsWith('54')
    ? ' (record ids and the indexed chatId/userId fields must stay under about 2.7 KB)'
    : '';
  return new ChatwireError('VALIDATION', `${where}: PostgreSQL rejected the value: ${message}${hint}`, {
    cause: error,
    details: { collection, sqlState: code },
  });
}
