export { createJwtVerifier, type JwtVerifierOptions, type TokenVerifier } from './create-jwt-verifier.js';
export { readBearerToken } from './read-bearer-token.js';
export { jwtOptionsFromEnv } from './jwt-options-from-env.js';
