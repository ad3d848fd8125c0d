import { schemaStatements } from './ensure-schema.js';
import { foldFunctionStatements, INSTALL_UNACCENT, searchColumnStatements } from './search-schema.js';
import { createTableNames } from './table-names.js';

export interface SchemaSqlOptions {
  /** Default `public`. */
  schema?: string;
  /** Default `chatwire_`. */
  tablePrefix?: string;
}

/**
 * The DDL the driver runs on first use (`ensureSchema`, from the same statements), as one SQL script for
 * teams that apply migrations themselves. Idempotent: every statement is `IF NOT EXISTS`.
 */
export function schemaSql(options: SchemaSqlOptions = {}): string {
  const tables = createTableNames(options.schema ?? 'public', options.tablePrefix ?? 'chatwire_');
  const search = [
    // Full-text search: `unaccent` in schema public, the IMMUTABLE fold around it, the generated column and its index.
    INSTALL_UNACCENT,
    ...foldFunctionStatements(tables, 'public'),
    ...searchColumnStatements(tables),
  ];
  return `${[...schemaStatements(tables), ...search].map((statement) => `${statement};`).join('\n\n')}\n`;
}
