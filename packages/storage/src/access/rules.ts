import type { Caller } from '../caller.js';
import type { CollectionDefinition, Rule } from '../collection-definition.js';
import type { RecordData } from '../record-envelope.js';

/** A rule seen from one caller: everyone/nobody at the collection level, or row-by-row ownership. */
export type Gate = 'allow' | 'deny' | 'own';

export function gate(rule: Rule, caller: Caller): Gate {
  if (rule === true) return 'allow';
  if (rule === false) return 'deny';
  if (rule === 'own') return 'own';
  return caller.role !== undefined && rule.includes(caller.role) ? 'allow' : 'deny';
}

/** The data field naming a row's owner (`ownerField`, default `userId`), when the collection has it. */
export function ownerFieldOf(def: CollectionDefinition): string | undefined {
  const field = def.ownerField ?? 'userId';
  return def.columns.some((c) => c.name === field) ? field : undefined;
}

/** Whether a row passes a gate for the caller. */
export function rowAllowed(g: Gate, def: CollectionDefinition, data: RecordData, caller: Caller): boolean {
  if (g === 'allow') return true;
  if (g === 'deny') return false;
  const field = ownerFieldOf(def);
  return field !== undefined && data[field] === caller.userId;
}

export function usesOwnRule(def: CollectionDefinition): boolean {
  const { read, create, update, delete: del } = def.rules;
  return [read, create, update, del].includes('own');
}
