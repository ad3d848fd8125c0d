import type { ChatServiceOptions } from '@chatwire/core';
import { ChatwireError } from '@chatwire/storage';
import { envChoice, envFlag, envMilliseconds } from './read-env.js';

export type TurnEnvOptions = Pick<
  ChatServiceOptions,
  'providerFirstByteTimeoutMs' | 'providerIdleTimeoutMs' | 'turnLeaseTtlMs' | 'onDisconnect' | 'createChatOnFirstTurn' | 'autoTitles' | 'sharing' | 'history' | 'approveTools'
>;

/**
 * CHATWIRE_PROVIDER_FIRST_BYTE_TIMEOUT_MS, CHATWIRE_PROVIDER_IDLE_TIMEOUT_MS (0 turns a timeout off),
 * CHATWIRE_TURN_LEASE_TTL_MS, CHATWIRE_ON_DISCONNECT (`abort` | `continue`), CHATWIRE_AUTO_CREATE_CHATS
 * (1 | 0), CHATWIRE_AUTO_TITLES (1 | 0), CHATWIRE_SHARING (1 | 0: share links), CHATWIRE_BRANCHING (1: `history: 'tree'`), CHATWIRE_APPROVE_TOOLS (comma-separated
 * tool names that ask the user before they run, e.g. `records.delete,records.update`). Unset ones keep the service's defaults; a malformed one is a CONFIGURATION error naming it.
 */
export function turnOptionsFromEnv(env: Record<string, string | undefined>): TurnEnvOptions {
  const options: TurnEnvOptions = {};
  const firstByte = envMilliseconds(env, 'CHATWIRE_PROVIDER_FIRST_BYTE_TIMEOUT_MS');
  if (firstByte !== undefined) options.providerFirstByteTimeoutMs = firstByte;
  const idle = envMilliseconds(env, 'CHATWIRE_PROVIDER_IDLE_TIMEOUT_MS');
  if (idle !== undefined) options.providerIdleTimeoutMs = idle;
  const ttl = envMilliseconds(env, 'CHATWIRE_TURN_LEASE_TTL_MS');
  if (ttl === 0) throw new ChatwireError('CONFIGURATION', 'CHATWIRE_TURN_LEASE_TTL_MS must be at least 1 millisecond');
  if (ttl !== undefined) options.turnLeaseTtlMs = ttl;
  const onDisconnect = envChoice(env, 'CHATWIRE_ON_DISCONNECT', ['abort', 'continue'] as const);
  if (onDisconnect !== undefined) options.onDisconnect = onDisconnect;
  const autoCreate = envFlag(env, 'CHATWIRE_AUTO_CREATE_CHATS');
  if (autoCreate !== undefined) options.createChatOnFirstTurn = autoCreate;
  const autoTitles = envFlag(env, 'CHATWIRE_AUTO_TITLES');
  if (autoTitles !== undefined) options.autoTitles = autoTitles;
  const branching = envFlag(env, 'CHATWIRE_BRANCHING');
  if (branching !== undefined) options.history = branching ? 'tree' : 'linear';
  const sharing = envFlag(env, 'CHATWIRE_SHARING');
  if (sharing !== undefined) options.sharing = sharing;
  const approve = env.CHATWIRE_APPROVE_TOOLS?.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (approve !== undefined && approve.length > 0) options.approveTools = approve;
  return options;
}
