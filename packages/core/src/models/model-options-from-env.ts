import type { ProviderName, ProvidersOptions } from './model-types.js';
import { parseModelMap } from './parse-model-map.js';
import { nonEmpty, PROVIDER_ENV_PREFIX } from './resolve-provider-connection.js';

export interface ModelEnvOptions {
  providers: ProvidersOptions;
  appOwnerToken?: string;
  modelMap?: Record<string, string>;
}

/**
 * The model settings of the environment, as registry options: `PROVIDER_{A,B,C}_BASE_URL` and
 * `PROVIDER_{A,B,C}_API_KEY` -> `providers.provider_{a,b,c}.{baseURL,apiKey}`, `APP_OWNER_JWT` ->
 * `appOwnerToken`, `CHATWIRE_MODEL_MAP` -> `modelMap`. Unset and blank variables are left out.
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
  return options;
}
