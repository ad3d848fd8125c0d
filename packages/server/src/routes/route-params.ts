import type { Caller } from '@chatwire/storage';
import type { RequestView } from '../handler-dispatch.js';

/** What the feedback and share routes read of a matched request. */
export interface RouteParams {
  request: RequestView;
  url: URL;
  caller: Caller;
  id: string | undefined;
  /** The second id of a path (the message of `/chats/:id/messages/:mid/feedback`). */
  subId?: string | undefined;
}

/** A matched path: the route's key and its ids. */
export interface RouteMatch {
  route: string;
  id?: string;
  subId?: string;
}

/** A path segment decoded; a malformed escape is kept as it was (it then matches no stored id). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
