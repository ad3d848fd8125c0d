import { schemaStatements } from './ensure-schema.js';
import { searchSchemaScript } from './search-schema.js';
import { createTableNames } from './table-names.js';

export interface SchemaSqlOptions {
  /** Default `public`. */
  schema?: string;
  /** Default `chatwire_`. */
  tablePrefix?: string;
}

/**
 * The DDL the driver runs on first use (`ensureSchema`, from the same statements), as one SQL script for
 * teams that apply migrations themselves. Idempotent: every statement is `IF NOT EXISTS` or guarded.
 */
export function schemaSql(options: SchemaSqlOptions = {}): string {
  const tables = createTableNames(options.schema ?? 'public', options.tablePrefix ?? 'chatwire_');
  // Full-text search: `unaccent` in schema public, the text search configuration over it, the generated column and
  // its index (a table of the first search shape is migrated).
  const search = searchSchemaScript(tables, 'public');
  return `${[...schemaStatements(tables), ...search].map((statement) => `${statement};`).join('\n\n')}\n`;
}
