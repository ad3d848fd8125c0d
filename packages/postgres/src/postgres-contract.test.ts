import { defineStoreContract } from '@chatwire/storage/testing';
import { describe } from 'vitest';
import { backends, type OpenedBackend } from './testing/test-backends.js';

/** The shared driver contract, against PGlite in-process and the PostgreSQL server, each in its own schema. */
for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`${backend.name} ${backend.skipReason}`, () => {
    let opened: OpenedBackend | undefined;
    defineStoreContract({
      name: `postgres (${backend.name})`,
      createDriver: async () => {
        opened = await backend.open('contract');
        return opened.driver;
      },
      cleanup: async () => {
        await opened?.cleanup(); // drops the schema
      },
    });
  });
}
