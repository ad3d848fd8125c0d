export type ProviderName = 'provider_a' | 'provider_b' | 'provider_c';

/**
 * Environment read by the provider factory and `fromEnv` (DESIGN.md "Models and providers").
 * Gateway mode: `PROVIDER_X_BASE_URL` and a bearer token (the caller's JWT, or APP_OWNER_JWT).
 * Direct mode: `PROVIDER_X_API_KEY` is used when no token is given.
 */
export interface ProviderEnv {
  PROVIDER_A_BASE_URL?: string | undefined;
  PROVIDER_B_BASE_URL?: string | undefined;
  PROVIDER_C_BASE_URL?: string | undefined;
  PROVIDER_A_API_KEY?: string | undefined;
  PROVIDER_B_API_KEY?: string | undefined;
  PROVIDER_C_API_KEY?: string | undefined;
  APP_OWNER_JWT?: string | undefined;
  [key: string]: string | undefined;
}
