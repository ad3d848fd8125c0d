import { ChatwireError } from '@chatwire/storage';
import type { ProviderName, ProvidersOptions } from './model-types.js';
import { parseModelMap } from './parse-model-map.js';
import { nonEmpty, PROVIDER_ENV_PREFIX } from './resolve-provider-connection.js';

export interface ModelEnvOptions {
  providers: ProvidersOptions;
  appOwnerToken?: string;
  modelMap?: Record<string, string>;
  /** From CHATWIRE_PROVIDER_FAST_PATH: `0` or `false` turns provider_a's stream fast path off. */
  fastPath?: boolean;
}

/**
 * The model settings of the environment, as registry options: `PROVIDER_{A,B,C}_BASE_URL` and
 * `PROVIDER_{A,B,C}_API_KEY` -> `providers.provider_{a,b,c}.{baseURL,apiKey}`, `APP_OWNER_JWT` ->
 * `appOwnerToken`, `CHATWIRE_MODEL_MAP` -> `modelMap`, `CHATWIRE_PROVIDER_FAST_PATH` (`0`/`false`, `1`/`true`)
 * -> `fastPath`. Unset and blank variables are left out.
 */
export function modelOptionsFromEnv(env: Record<string, string | undefined>): ModelEnvOptions {
  const providers: ProvidersOptions = {};
  for (const [name, prefix] of Object.entries(PROVIDER_ENV_PREFIX) as Array<[ProviderName, string]>) {
    const baseURL = nonEmpty(env[`${prefix}_BASE_URL`]);
    const apiKey = nonEmpty(env[`${prefix}_API_KEY`]);
    if (baseURL === undefined && apiKey === undefined) continue;
    providers[name] = { ...(baseURL === undefined ? {} : { baseURL }), ...(apiKey === undefined ? {} : { apiKey }) };
  }
  const options: ModelEnvOptions = { providers };
  const appOwnerToken = nonEmpty(env['APP_OWNER_JWT']);
  if (appOwnerToken !== undefined) options.appOwnerToken = appOwnerToken;
  const map = nonEmpty(env['CHATWIRE_MODEL_MAP']);
  if (map !== undefined) options.modelMap = parseModelMap(map);
  const fastPath = nonEmpty(env['CHATWIRE_PROVIDER_FAST_PATH'])?.toLowerCase();
  if (fastPath !== undefined) {
    if (fastPath !== '0' && fastPath !== '1' && fastPath !== 'false' && fastPath !== 'true') {
      throw new ChatwireError('CONFIGURATION', `CHATWIRE_PROVIDER_FAST_PATH must be 0, 1, false or true, got '${fastPath}'`);
    }
    options.fastPath = fastPath === '1' || fastPath === 'true';
  }
  return options;
}
