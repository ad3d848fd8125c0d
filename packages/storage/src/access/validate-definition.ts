import { ChatwireError } from '../chatwire-error.js';
import type { CollectionDefinition, ColumnType, Rule } from '../collection-definition.js';
import { COLLECTION_NAME_PATTERN, COLUMN_NAME_PATTERN, RESERVED_COLUMNS } from './store-limits.js';

const COLUMN_TYPES: readonly ColumnType[] = ['string', 'number', 'boolean', 'object', 'array', 'json'];
const OPERATIONS = ['read', 'create', 'update', 'delete'] as const;

function bad(name: unknown, message: string): ChatwireError {
  return new ChatwireError('CONFIGURATION', `Collection "${String(name)}": ${message}`, {
    details: { collection: String(name) },
  });
}

function checkRule(name: string, op: string, rule: unknown): Rule {
  if (typeof rule === 'boolean' || rule === 'own') return rule;
  if (Array.isArray(rule) && rule.every((r) => typeof r === 'string' && r.length > 0)) return Object.freeze([...rule]);
  throw bad(name, `rule "${op}" must be true, false, 'own' or a list of role names`);
}

/** Checks a definition and returns a frozen copy. Throws CONFIGURATION naming the problem. */
export function validateDefinition(def: CollectionDefinition): CollectionDefinition {
  if (typeof def !== 'object' || def === null) throw bad(def, 'definition must be an object');
  const { name } = def;
  if (typeof name !== 'string' || !COLLECTION_NAME_PATTERN.test(name)) {
    throw bad(name, `name must match ${COLLECTION_NAME_PATTERN}`);
  }
  if (!Array.isArray(def.columns)) throw bad(name, 'columns must be an array');
  const seen = new Set<string>();
  const columns = def.columns.map((column) => {
    if (typeof column?.name !== 'string' || !COLUMN_NAME_PATTERN.test(column.name)) {
      throw bad(name, `column name "${String(column?.name)}" must match ${COLUMN_NAME_PATTERN}`);
    }
    if ((RESERVED_COLUMNS as readonly string[]).includes(column.name)) {
      throw bad(name, `column "${column.name}" clashes with the record envelope`);
    }
    if (seen.has(column.name)) throw bad(name, `column "${column.name}" is declared twice`);
    seen.add(column.name);
    if (!COLUMN_TYPES.includes(column.type)) throw bad(name, `column "${column.name}" has unknown type "${String(column.type)}"`);
    if (column.maxLength !== undefined && !(Number.isInteger(column.maxLength) && column.maxLength > 0)) {
      throw bad(name, `column "${column.name}" maxLength must be a positive integer`);
    }
    return Object.freeze({ ...column });
  });
  if (typeof def.rules !== 'object' || def.rules === null) throw bad(name, 'rules are required');
  const rules = Object.fromEntries(OPERATIONS.map((op) => [op, checkRule(name, op, def.rules[op])]));
  const ownerField = def.ownerField ?? 'userId';
  const owner = columns.find((c) => c.name === ownerField);
  if (OPERATIONS.some((op) => rules[op] === 'own') && owner?.type !== 'string') {
    throw bad(name, `'own' rules need a string column "${ownerField}" (ownerField)`);
  }
  if (def.ownerField !== undefined && !owner) throw bad(name, `ownerField "${def.ownerField}" is not a column`);
  return Object.freeze({
    ...def,
    columns: Object.freeze(columns),
    rules: Object.freeze(rules) as unknown as CollectionDefinition['rules'],
  });
}
