import { z } from 'zod';
import type { Caller, ColumnType, Rule } from '@chatwire/storage';
import { ownerFieldOf, resolveCatalogCollection } from './catalog-collection.js';
import { collectionInput } from './record-input-schemas.js';
import type { ChatwireTool } from './tool-types.js';

/** What the caller may do for one operation: on every row, only on their own rows, or not at all. */
export type AccessLevel = 'all' | 'own' | 'none';

export interface SchemaDescribeOutput {
  name: string;
  description?: string;
  /** Data field holding the owner's user id; the catalog sets it on create and never changes it. */
  ownerField: string;
  columns: Array<{ name: string; type: ColumnType; required: boolean; description?: string; maxLength?: number }>;
  /** The collection's rules as configured (`true`, `false`, `'own'` or a list of roles). */
  rules: { read: Rule; create: Rule; update: Rule; delete: Rule };
  /** The rules resolved for this caller. */
  yourAccess: { read: AccessLevel; create: AccessLevel; update: AccessLevel; delete: AccessLevel };
}

const inputSchema = z.strictObject({ collection: collectionInput }).describe('Which collection to describe.');

function accessLevel(rule: Rule, caller: Caller): AccessLevel {
  if (rule === true) return 'all';
  if (rule === 'own') return 'own';
  if (rule === false) return 'none';
  return caller.role !== undefined && rule.includes(caller.role) ? 'all' : 'none';
}

/** `schema.describe`: one collection's columns, rules and what the caller may do with it. */
export function createSchemaDescribeTool(): ChatwireTool<z.infer<typeof inputSchema>, SchemaDescribeOutput> {
  return {
    description:
      'Describe one collection: its data fields (name, type, required, description), its owner field and what you may ' +
      'do with it (yourAccess: read/create/update/delete = "all", "own" for your own records only, or "none"). ' +
      'Call this before creating or filtering records so you use the right field names.',
    inputSchema,
    execute({ collection }, { records, caller }) {
      const definition = resolveCatalogCollection(records, collection, 'schema.describe');
      const { rules } = definition;
      return {
        name: definition.name,
        ...(definition.description === undefined ? {} : { description: definition.description }),
        ownerField: ownerFieldOf(definition),
        columns: definition.columns.map((column) => ({
          name: column.name,
          type: column.type,
          required: column.required === true,
          ...(column.description === undefined ? {} : { description: column.description }),
          ...(column.maxLength === undefined ? {} : { maxLength: column.maxLength }),
        })),
        rules: { read: rules.read, create: rules.create, update: rules.update, delete: rules.delete },
        yourAccess: {
          read: accessLevel(rules.read, caller),
          create: accessLevel(rules.create, caller),
          update: accessLevel(rules.update, caller),
          delete: accessLevel(rules.delete, caller),
        },
      };
    },
  };
}
