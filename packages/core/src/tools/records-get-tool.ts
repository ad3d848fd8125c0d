import { z } from 'zod';
import type { RecordEnvelope } from '@chatwire/storage';
import { resolveCatalogCollection } from './catalog-collection.js';
import { assertKnownFields, projectRecord } from './project-record.js';
import { collectionInput, fieldsInput, recordIdInput } from './record-input-schemas.js';
import type { ChatwireTool } from './tool-types.js';

const NAME = 'records.get';

const inputSchema = z
  .strictObject({ collection: collectionInput, recordId: recordIdInput, fields: fieldsInput.optional() })
  .describe('Which record to fetch.');

/** Output: the record envelope `{ recordId, data, createdAt, updatedAt }`. */
export type RecordsGetOutput = RecordEnvelope;

/** `records.get`: one record by id. Rows the caller may not read are reported as missing. */
export function createRecordsGetTool(): ChatwireTool<z.infer<typeof inputSchema>, RecordsGetOutput> {
  return {
    description:
      'Fetch one record by its recordId. Returns {recordId, data, createdAt, updatedAt}. Fails when the record does ' +
      'not exist or you may not read it.',
    inputSchema,
    resultCapHint: 'Ask for fewer `fields`.',
    async execute({ collection, recordId, fields }, { records }) {
      const definition = resolveCatalogCollection(records, collection, NAME);
      if (fields !== undefined) assertKnownFields(definition, fields, NAME);
      return projectRecord(await records.get(definition.name, recordId), fields);
    },
  };
}
