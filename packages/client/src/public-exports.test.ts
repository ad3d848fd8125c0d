import { expect, it, vi } from 'vitest';

// Importing every entry's sources takes seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

// The public surface of @chatwire/client: a change here is a change for every user, so it shows in review.
it('exports exactly this API', async () => {
  const api = await import('./index.js');
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "CHUNK_TYPES_WITHOUT_ACTION",
      "ChatwireClientError",
      "UI_MESSAGE_CHUNK_TYPES",
      "approvalAnswersOf",
      "approvalRequestsOf",
      "approvalsAnswered",
      "chunkToAction",
      "createAssistantMessage",
      "createBranchSwitcher",
      "createChatClient",
      "createChatwireTransport",
      "createChunkDecoder",
      "createLineSplitter",
      "decodeActionBatches",
      "decodeActions",
      "decodeChunks",
      "isChatwireClientError",
      "mergeMessages",
      "parseSseLine",
      "reduceAssistantMessage",
      "reduceAssistantMessageAll",
      "toUiMessages",
      "toolCallsOf",
      "validateChunk",
      "withApprovalRequested",
    ]
  `);
});
