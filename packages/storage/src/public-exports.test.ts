import { expect, it, vi } from 'vitest';

// Importing every entry's sources takes seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

// The public surface of @chatwire/storage: a change here is a change for every user, so it shows in review.
it('exports exactly this API', async () => {
  const api = await import('./index.js');
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "BLOB_KEY_PATTERN",
      "ChatwireError",
      "DEFAULT_QUERY_LIMIT",
      "DEFAULT_TURN_LEASE_TTL_MS",
      "FILTER_OPERATORS",
      "LONE_SURROGATE",
      "MAX_NOTIFICATION_BYTES",
      "MAX_SEARCH_LENGTH",
      "RECORD_ID_PATTERN",
      "SEARCH_FIELDS",
      "accessDriver",
      "checkBlobKey",
      "checkNotification",
      "checkSubscription",
      "compareCodePoints",
      "compareSortValues",
      "concatBytes",
      "createMemoryBlobStore",
      "createRecordStore",
      "decodeCursor",
      "decodeSearchCursor",
      "encodeCursor",
      "encodeSearchCursor",
      "isChatwireError",
      "jsonEqual",
      "matchesCondition",
      "matchesFilter",
      "parseSearchQuery",
      "sortTypeRank",
    ]
  `);
});
