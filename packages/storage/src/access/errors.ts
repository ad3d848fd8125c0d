import { ChatwireError } from '../chatwire-error.js';

/** VALIDATION error naming the collection and, when there is one, the field. */
export function invalid(collection: string | undefined, field: string | undefined, message: string): ChatwireError {
  const where = [collection && `collection "${collection}"`, field && `field "${field}"`].filter(Boolean).join(', ');
  return new ChatwireError('VALIDATION', where ? `${message} (${where})` : message, {
    details: { ...(collection && { collection }), ...(field && { field }) },
  });
}

export function forbidden(collection: string, action: string): ChatwireError {
  return new ChatwireError('FORBIDDEN', `Not allowed to ${action} in collection "${collection}"`, {
    details: { collection },
  });
}

export function notFound(collection: string, recordId: string): ChatwireError {
  return new ChatwireError('NOT_FOUND', `Record "${recordId}" not found in collection "${collection}"`, {
    details: { collection, recordId },
  });
}
