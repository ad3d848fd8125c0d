import { z } from 'zod';
import { ChatwireError, type AccessQuery, type Caller, type CollectionDefinition, type Filter, type RecordEnvelope } from '@chatwire/storage';
import { ownerFieldOf, resolveCatalogCollection } from './catalog-collection.js';
import { assertKnownFields, projectRecord } from './project-record.js';
import { collectionInput, cursorInput, fieldsInput, filterInput, orderByInput } from './record-input-schemas.js';
import type { ChatwireTool } from './tool-types.js';

const NAME = 'records.query';

export interface RecordsQueryOutput {
  /** Record envelopes `{ recordId, data, createdAt, updatedAt }` (spec 2.1), only the caller's rows where reads are `'own'`. */
  records: RecordEnvelope[];
  /** Pass as `cursor` to get the next page; null when there are no more rows. */
  nextCursor: string | null;
}

export interface RecordsQuerySettings {
  /** Rows per call when the model gives no `limit`. */
  defaultLimit: number;
  /** Largest `limit` the input schema accepts. */
  maxLimit: number;
}

function inputSchemaFor(settings: RecordsQuerySettings) {
  return z
    .strictObject({
      collection: collectionInput,
      filter: filterInput.optional(),
      orderBy: orderByInput.optional(),
      limit: z
        .number()
        .int()
        .min(1)
        .max(settings.maxLimit)
        .optional()
        .describe(`How many records to return, 1 to ${settings.maxLimit}. Default ${settings.defaultLimit}.`),
      cursor: cursorInput.optional(),
      fields: fieldsInput.optional(),
    })
    .describe('Which records to list.');
}

export type RecordsQueryInput = z.infer<ReturnType<typeof inputSchemaFor>>;

/**
 * Where reads are `'own'` the access layer already limits rows to the caller; a filter on the owner
 * field that names anyone else is an attempt to widen the query and is refused outright.
 */
function assertOwnerFilter(definition: CollectionDefinition, filter: Filter | undefined, caller: Caller): void {
  const owner = ownerFieldOf(definition);
  if (filter === undefined || definition.rules.read !== 'own' || !Object.hasOwn(filter, owner)) return;
  const condition = filter[owner];
  const mine =
    condition === caller.userId ||
    (typeof condition === 'object' && condition !== null && Object.keys(condition).length === 1 && condition.eq === caller.userId);
  if (!mine) {
    throw new ChatwireError(
      'FORBIDDEN',
      `${NAME}: you can only see your own records in '${definition.name}'; leave '${owner}' out of the filter`,
      { details: { collection: definition.name, field: owner } },
    );
  }
}

/** `records.query`: filter, sort and page through one collection as the caller. */
export function createRecordsQueryTool(settings: RecordsQuerySettings): ChatwireTool<RecordsQueryInput, RecordsQueryOutput> {
  return {
    description:
      'List records of one collection, optionally filtered and sorted, as the signed-in user (you only see records you ' +
      'may read). Returns {records: [{recordId, data, createdAt, updatedAt}], nextCursor}; pass nextCursor back as ' +
      'cursor for the next page. Use fields to return only some data fields.',
    inputSchema: inputSchemaFor(settings),
    resultCapHint: 'Ask for less: a smaller `limit`, fewer `fields` or a narrower `filter`, and page on with `cursor`.',
    async execute(input, { records, caller }) {
      const definition = resolveCatalogCollection(records, input.collection, NAME);
      assertOwnerFilter(definition, input.filter, caller);
      if (input.fields !== undefined) assertKnownFields(definition, input.fields, NAME);
      const query: AccessQuery = { limit: input.limit ?? settings.defaultLimit };
      if (input.filter !== undefined) query.filter = input.filter;
      if (input.orderBy !== undefined) query.orderBy = input.orderBy;
      if (input.cursor !== undefined) query.cursor = input.cursor;
      const page = await records.query(definition.name, query);
      return {
        records: page.records.map((record) => projectRecord(record, input.fields)),
        nextCursor: page.nextCursor,
      };
    },
  };
}
