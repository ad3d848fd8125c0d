import { ChatwireError } from '@chatwire/storage';

/** The HTTP time limits of the chat handler; each unset one keeps its default. */
export interface HttpLimits {
  bodyTimeoutMs?: number;
  heartbeatMs?: number;
  clientIdleTimeoutMs?: number;
}

const VARIABLES: ReadonlyArray<readonly [keyof HttpLimits, string]> = [
  ['bodyTimeoutMs', 'CHATWIRE_BODY_TIMEOUT_MS'],
  ['heartbeatMs', 'CHATWIRE_HEARTBEAT_MS'],
  ['clientIdleTimeoutMs', 'CHATWIRE_CLIENT_IDLE_TIMEOUT_MS'],
];

/**
 * Reads CHATWIRE_BODY_TIMEOUT_MS, CHATWIRE_HEARTBEAT_MS and CHATWIRE_CLIENT_IDLE_TIMEOUT_MS: whole
 * milliseconds, `0` turns the limit off; unset or empty keeps the default. Anything else is a
 * CONFIGURATION error naming the variable.
 */
export function httpLimitsFromEnv(env: Record<string, string | undefined>): HttpLimits {
  const limits: HttpLimits = {};
  for (const [option, name] of VARIABLES) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) {
      throw new ChatwireError(
        'CONFIGURATION',
        `${name} must be a whole number of milliseconds (0 turns it off), got '${env[name]}'`,
      );
    }
    limits[option] = value;
  }
  return limits;
}
