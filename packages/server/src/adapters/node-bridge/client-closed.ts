/** The reason a request's signal, body or answer stream ends with when the client went away. */
export function clientClosed(): DOMException {
  return new DOMException('The client closed the connection', 'AbortError');
}
