import { ChatwireError } from '@chatwire/storage';

/** Quoted, schema-qualified names of the driver's tables and indexes. Built from options, never from input. */
export interface TableNames {
  schema: string;
  records: string;
  leases: string;
  /** Unquoted names, for index names and the advisory-lock key. */
  raw: { schema: string; records: string; leases: string };
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** PostgreSQL truncates identifiers at 63 bytes; the longest derived name adds `_user_created_idx`. */
const MAX_BASE_LENGTH = 40;

function checkIdentifier(option: string, value: string, allowEmpty: boolean): void {
  if (allowEmpty && value === '') return;
  if (!IDENTIFIER.test(value) || value.length > MAX_BASE_LENGTH) {
    throw new ChatwireError(
      'CONFIGURATION',
      `postgres driver: option "${option}" must match ${IDENTIFIER.source} and be at most ${MAX_BASE_LENGTH} characters, got ${JSON.stringify(value)}`,
      { details: { option } },
    );
  }
}

const quote = (name: string) => `"${name}"`;

export function createTableNames(schema: string, tablePrefix: string): TableNames {
  checkIdentifier('schema', schema, false);
  checkIdentifier('tablePrefix', tablePrefix, true);
  const records = `${tablePrefix}records`;
  const leases = `${tablePrefix}leases`;
  return {
    schema: quote(schema),
    records: `${quote(schema)}.${quote(records)}`,
    leases: `${quote(schema)}.${quote(leases)}`,
    raw: { schema, records, leases },
  };
}
