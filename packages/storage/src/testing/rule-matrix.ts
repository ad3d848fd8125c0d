import type { Caller } from '../caller.js';
import type { Rule } from '../collection-definition.js';

export type RuleKind = 'false' | 'true' | 'own' | 'roles';
export type RuleOperation = 'read' | 'query' | 'create' | 'update' | 'delete';
export type RuleActor = 'owner' | 'other user' | 'user with role' | 'user without role' | 'server';
/** OK: allowed and done; EMPTY: the query runs and returns nothing; otherwise the ChatwireError code. */
export type RuleOutcome = 'OK' | 'EMPTY' | 'NOT_FOUND' | 'FORBIDDEN';

export const RULE_ACTORS: readonly RuleActor[] = ['owner', 'other user', 'user with role', 'user without role', 'server'];

/** The seeded row belongs to alice. The role list under test is `['admin']`. */
export const ACTOR_CALLERS: Record<Exclude<RuleActor, 'server'>, Caller> = {
  owner: { userId: 'alice', role: 'member' },
  'other user': { userId: 'bob', role: 'member' },
  'user with role': { userId: 'carol', role: 'admin' },
  'user without role': { userId: 'dave' },
};

export const RULE_VALUES: Record<RuleKind, Rule> = { false: false, true: true, own: 'own', roles: ['admin'] };

/**
 * The rule under test is set on its operation (`read` for get and query); every other rule is `true`.
 * Columns: owner, other user, user with role, user without role, server.
 */
export const RULE_MATRIX: [RuleKind, RuleOperation, [RuleOutcome, RuleOutcome, RuleOutcome, RuleOutcome, RuleOutcome]][] = [
  ['false', 'read', ['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'OK']],
  ['false', 'query', ['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'OK']],
  ['false', 'create', ['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'OK']],
  ['false', 'update', ['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'OK']],
  ['false', 'delete', ['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'OK']],
  ['true', 'read', ['OK', 'OK', 'OK', 'OK', 'OK']],
  ['true', 'query', ['OK', 'OK', 'OK', 'OK', 'OK']],
  ['true', 'create', ['OK', 'OK', 'OK', 'OK', 'OK']],
  ['true', 'update', ['OK', 'OK', 'OK', 'OK', 'OK']],
  ['true', 'delete', ['OK', 'OK', 'OK', 'OK', 'OK']],
  ['own', 'read', ['OK', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'OK']],
  ['own', 'query', ['OK', 'EMPTY', 'EMPTY', 'EMPTY', 'OK']],
  ['own', 'create', ['OK', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'OK']],
  ['own', 'update', ['OK', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'OK']],
  ['own', 'delete', ['OK', 'NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND', 'OK']],
  ['roles', 'read', ['FORBIDDEN', 'FORBIDDEN', 'OK', 'FORBIDDEN', 'OK']],
  ['roles', 'query', ['FORBIDDEN', 'FORBIDDEN', 'OK', 'FORBIDDEN', 'OK']],
  ['roles', 'create', ['FORBIDDEN', 'FORBIDDEN', 'OK', 'FORBIDDEN', 'OK']],
  ['roles', 'update', ['FORBIDDEN', 'FORBIDDEN', 'OK', 'FORBIDDEN', 'OK']],
  ['roles', 'delete', ['FORBIDDEN', 'FORBIDDEN', 'OK', 'FORBIDDEN', 'OK']],
];
