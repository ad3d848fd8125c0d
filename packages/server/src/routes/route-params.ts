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

/**
 * `path` without trailing slashes. A loop, not `/\/+$/`: that regex backtracks quadratically on a long
 * run of slashes that does not end the path, which an unauthenticated request could use to stall the
 * event loop.
 */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47 /* '/' */) end--;
  return path.slice(0, end);
}
