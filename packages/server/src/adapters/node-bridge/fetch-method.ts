/** An HTTP method token (RFC 9110 `token`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Methods a web `Request` refuses to carry, in any case (Fetch standard, "forbidden method"). */
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * True when a web `Request` can carry `method`. Node's parser accepts `TRACE`, and a framework may set
 * `req.method` to anything (method-override middleware): those requests must not reach `new Request`.
 */
export function isFetchMethod(method: string): boolean {
  return TOKEN.test(method) && !FORBIDDEN.has(method.toUpperCase());
}
