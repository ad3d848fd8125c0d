import { envMilliseconds } from '../env/read-env.js';

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
    const value = envMilliseconds(env, name);
    if (value !== undefined) limits[option] = value;
  }
  return limits;
}
