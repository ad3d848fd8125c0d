import { z } from 'zod';
import { ChatwireError, type RecordData, type RecordEnvelope } from '@chatwire/storage';
import { ownerFieldOf, resolveCatalogCollection } from './catalog-collection.js';
import { collectionInput, dataInput } from './record-input-schemas.js';
import type { ChatwireTool } from './tool-types.js';

const NAME = 'records.create';

const inputSchema = z
  .strictObject({
    collection: collectionInput,
    data: dataInput.describe(
      'The new record\'s fields keyed by field name, e.g. {"title": "Groceries", "body": "milk, eggs"}. ' +
        'Leave the owner field out: it is set to the signed-in user.',
    ),
  })
  .describe('Which collection to add a record to, and its fields.');

/** Output: the stored record envelope `{ recordId, data, createdAt, updatedAt }`. */
export type RecordsCreateOutput = RecordEnvelope;

/**
 * `records.create`: adds a record owned by the caller. When the collection has a column named after
 * its owner field, the catalog fills it with the caller's user id; naming anyone else is FORBIDDEN.
 */
export function createRecordsCreateTool(): ChatwireTool<z.infer<typeof inputSchema>, RecordsCreateOutput> {
  return {
    description:
      'Create a record in a collection you may create in (see schema_describe for the fields). The record belongs ' +
      'to the signed-in user. Returns the stored record {recordId, data, createdAt, updatedAt}.',
    inputSchema,
    async execute({ collection, data }, { records, caller }) {
      const definition = resolveCatalogCollection(records, collection, NAME);
      const owner = ownerFieldOf(definition);
      if (Object.hasOwn(data, owner) && data[owner] !== caller.userId) {
        throw new ChatwireError(
          'FORBIDDEN',
          `${NAME}: '${owner}' of a new '${definition.name}' record is always the signed-in user; leave it out of data`,
          { details: { collection: definition.name, field: owner } },
        );
      }
      const row: RecordData = { ...data };
      if (definition.columns.some((column) => column.name === owner)) row[owner] = caller.userId;
      return records.create(definition.name, row);
    },
  };
}
