import { z } from 'zod';
import { ChatwireError, type RecordEnvelope } from '@chatwire/storage';
import { ownerFieldOf, resolveCatalogCollection } from './catalog-collection.js';
import { collectionInput, dataInput, recordIdInput } from './record-input-schemas.js';
import type { ChatwireTool } from './tool-types.js';

const NAME = 'records.update';

const inputSchema = z
  .strictObject({
    collection: collectionInput,
    recordId: recordIdInput,
    patch: dataInput
      .refine((patch) => Object.keys(patch).length > 0, 'patch needs at least one field')
      .describe('Only the fields to change, keyed by field name, e.g. {"title": "New title"}. Other fields stay as they are.'),
  })
  .describe('Which record to change, and how.');

/** Output: the record envelope after the change. */
export type RecordsUpdateOutput = RecordEnvelope;

/** `records.update`: shallow patch of one record the caller may update. The owner field never changes. */
export function createRecordsUpdateTool(): ChatwireTool<z.infer<typeof inputSchema>, RecordsUpdateOutput> {
  return {
    description:
      'Change some fields of one record you may update. Only the fields in patch change. Returns the updated ' +
      'record {recordId, data, createdAt, updatedAt}.',
    inputSchema,
    async execute({ collection, recordId, patch }, { records }) {
      const definition = resolveCatalogCollection(records, collection, NAME);
      const owner = ownerFieldOf(definition);
      if (Object.hasOwn(patch, owner)) {
        throw new ChatwireError(
          'FORBIDDEN',
          `${NAME}: '${owner}' is the owner field of '${definition.name}' and cannot be changed; leave it out of patch`,
          { details: { collection: definition.name, field: owner } },
        );
      }
      return records.update(definition.name, recordId, patch);
    },
  };
}
