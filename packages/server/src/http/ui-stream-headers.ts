/** Response headers of a turn's stream (the AI SDK's UI message stream over SSE, never buffered by proxies). */
export const UI_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  'x-vercel-ai-ui-message-stream': 'v1',
};
