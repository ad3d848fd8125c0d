import { readUIMessageStream, type UIMessageChunk } from 'ai';

type Chunk = Record<string, unknown> & { type: string };

/** What an `error` chunk's text is compared as: its presence and position only. */
export const ERROR_TEXT = '<error text>';

/**
 * The documented differences between chatwire's stream and the AI SDK's
 * `streamText(...).toUIMessageStream({ sendReasoning: false })` on the same provider bytes, applied to the
 * SDK's chunks. Everything else must be equal, chunk by chunk. (The `start` chunk needs no entry: the SDK run
 * is given chatwire's assistant id through `generateMessageId`.)
 */
export function sdkChunksAsChatwireSends(chunks: readonly UIMessageChunk[]): Chunk[] {
  const out: Chunk[] = [];
  for (const chunk of chunks as readonly Chunk[]) {
    // 1. No reasoning: chatwire sends no `reasoning-*` chunk at all (the SDK, even with sendReasoning: false,
    //    still sends reasoning-start and reasoning-end).
    if (chunk.type.startsWith('reasoning-')) continue;
    // 2. No provider metadata: chatwire sends no `providerMetadata` on any chunk (provider item ids,
    //    citations, signatures), so stored parts carry no `providerMetadata` / `callProviderMetadata` either.
    const { providerMetadata: _metadata, ...rest } = chunk;
    // 3. Safe error texts: an `error` chunk carries chatwire's safe text (a status code at most), compared by
    //    presence and position only. Tool error texts are not masked and are compared exactly.
    if (rest.type === 'error') {
      out.push({ type: 'error', errorText: ERROR_TEXT });
      // 4. An error ends the turn: after an `error` chunk chatwire streams nothing more and stores nothing,
      //    while the SDK goes on (finish-step, finish, even the rest of an answer).
      break;
    }
    // 5. No `unknown` finish reason: chatwire sends `other` (the value AI SDK 6 and 7 use for it; their
    //    clients reject `unknown`), when the provider sent no reason or the connection ended first.
    if (rest.type === 'finish' && rest.finishReason === 'unknown') rest.finishReason = 'other';
    out.push(rest as Chunk);
  }
  return out;
}

/** chatwire's chunks with the error texts set aside (rule 3 above). */
export function chatwireChunksCompared(chunks: ReadonlyArray<Record<string, unknown>>): Chunk[] {
  return (chunks as ReadonlyArray<Chunk>).map((chunk) => (chunk.type === 'error' ? { type: 'error', errorText: ERROR_TEXT } : chunk));
}

/**
 * The final message parts the SDK's reader (`readUIMessageStream`, as `useChat` does) builds from these
 * chunks, as stored JSON (fields left `undefined` are absent).
 */
export async function sdkMessageParts(chunks: readonly Chunk[]): Promise<unknown[]> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk);
      controller.close();
    },
  });
  let parts: unknown[] = [];
  for await (const message of readUIMessageStream({ stream })) parts = message.parts;
  return JSON.parse(JSON.stringify(parts)) as unknown[];
}
