import { ChatwireError, type CollectionDefinition, type RecordEnvelope } from '@chatwire/storage';
import { ownerFieldOf } from './catalog-collection.js';

/** Throws VALIDATION naming the first requested field that is not a column of the collection. */
export function assertKnownFields(definition: CollectionDefinition, fields: readonly string[], toolName: string): void {
  const known = new Set([...definition.columns.map((column) => column.name), ownerFieldOf(definition)]);
  const unknown = fields.find((field) => !known.has(field));
  if (unknown !== undefined) {
    throw new ChatwireError(
      'VALIDATION',
      `${toolName}: '${definition.name}' has no field '${unknown}'; known fields: ${[...known].join(', ')}`,
      { details: { collection: definition.name, field: unknown } },
    );
  }
}

/** The envelope with only the listed data fields (all of them when `fields` is undefined). */
export function projectRecord(record: RecordEnvelope, fields: readonly string[] | undefined): RecordEnvelope {
  if (fields === undefined) return record;
  const data: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(record.data, field)) data[field] = record.data[field];
  }
  return { ...record, data };
}
