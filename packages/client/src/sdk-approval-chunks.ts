import type { UIMessageChunk } from 'ai';

/**
 * Which approval chunks the transport gives the `Chat`:
 * - `'data'` (default): the server's stream as it is. A paused call has a `data-tool-approval` part and its tool
 *   part stays `input-available`; the app answers with `addToolResult` / `addToolOutput` (every major).
 * - `'sdk'` (AI SDK 6 and 7 only): also the SDK's own `tool-approval-request` chunk before each
 *   `data-tool-approval` (`approvalId` = the tool call id), so the tool part becomes `approval-requested` and the
 *   app answers with `addToolApprovalResponse`; a call denied that way gets `tool-output-denied` in the
 *   continuation (the part becomes `output-denied`). An ai@5 `Chat` does not know these chunks: never set it there.
 */
export type ApprovalChunks = 'sdk' | 'data';

type Chunk = { type: string; toolCallId?: unknown; id?: unknown; data?: unknown };

/**
 * The chunk mapper of `'sdk'` mode: a `data-tool-approval` chunk is preceded by the SDK's `tool-approval-request`
 * for its call; the `tool-output-available` of a call in `denied` (answered `approved: false` through
 * `addToolApprovalResponse`) becomes `tool-output-denied`. Other chunks pass as they are.
 */
export function sdkApprovalChunks(denied: ReadonlySet<string> = new Set()) {
  return (chunk: UIMessageChunk): UIMessageChunk | UIMessageChunk[] => {
    const c = chunk as Chunk;
    if (c.type === 'data-tool-approval') {
      const toolCallId = (c.data as { toolCallId?: unknown } | null)?.toolCallId ?? c.id;
      if (typeof toolCallId !== 'string') return chunk;
      return [{ type: 'tool-approval-request', approvalId: toolCallId, toolCallId } as unknown as UIMessageChunk, chunk];
    }
    if (c.type === 'tool-output-available' && typeof c.toolCallId === 'string' && denied.has(c.toolCallId)) {
      return { type: 'tool-output-denied', toolCallId: c.toolCallId } as unknown as UIMessageChunk;
    }
    return chunk;
  };
}
