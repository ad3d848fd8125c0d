/**
 * A JSON answer before it becomes a web `Response`: status, headers and the serialised body. The fetch
 * handler turns it into a `Response`; the node adapter writes it to the socket as it is (one write with a
 * Content-Length, no body stream).
 */
export interface JsonReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): JsonReply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

export function replyToResponse(reply: JsonReply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
