import { z } from 'zod';
import { resolveCatalogCollection } from './catalog-collection.js';
import { collectionInput, recordIdInput } from './record-input-schemas.js';
import type { ChatwireTool } from './tool-types.js';

const NAME = 'records.delete';

const inputSchema = z
  .strictObject({ collection: collectionInput, recordId: recordIdInput })
  .describe('Which record to delete.');

export interface RecordsDeleteOutput {
  deleted: true;
  collection: string;
  recordId: string;
}

/** `records.delete`: removes one record the caller may delete. */
export function createRecordsDeleteTool(): ChatwireTool<z.infer<typeof inputSchema>, RecordsDeleteOutput> {
  return {
    description:
      'Delete one record you may delete. This cannot be undone: only do it when the user asked for it. ' +
      'Returns {deleted: true, collection, recordId}.',
    inputSchema,
    async execute({ collection, recordId }, { records }) {
      const definition = resolveCatalogCollection(records, collection, NAME);
      await records.delete(definition.name, recordId);
      return { deleted: true, collection: definition.name, recordId };
    },
  };
}
