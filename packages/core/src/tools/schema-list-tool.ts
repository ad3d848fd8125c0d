import { z } from 'zod';
import { catalogCollections } from './catalog-collection.js';
import type { ChatwireTool } from './tool-types.js';

export interface SchemaListOutput {
  /** Collections the caller may read or create through the catalog (never `ai-*` or hidden ones). */
  collections: Array<{ name: string; description?: string }>;
}

const inputSchema = z.strictObject({}).describe('No input: pass an empty object.');

/** `schema.list`: names (and descriptions) of the collections the caller can use. */
export function createSchemaListTool(): ChatwireTool<z.infer<typeof inputSchema>, SchemaListOutput> {
  return {
    description:
      'List the data collections you can use for this user. Call this first when you do not know the collection ' +
      'names; then call schema_describe for the fields of one collection. Returns {collections: [{name, description}]}.',
    inputSchema,
    resultCapHint: 'Call schema_describe for one collection at a time.',
    execute(_input, { records }) {
      return {
        collections: catalogCollections(records).map((definition) =>
          definition.description === undefined
            ? { name: definition.name }
            : { name: definition.name, description: definition.description },
        ),
      };
    },
  };
}
