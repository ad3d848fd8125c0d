export interface CorsOptions {
  /** Allowed origins: `'*'`, one origin, a list, or a predicate. */
  origin: '*' | string | readonly string[] | ((origin: string) => boolean);
  /** Preflight cache in seconds (default 600). */
  maxAgeSec?: number;
}

const EXPOSED = 'X-Asst-Id';
// Every method a route answers (a cors test checks them against the OpenAPI document's).
const METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

function allowedOrigin(options: CorsOptions, origin: string | null): string | null {
  if (options.origin === '*') return '*';
  if (!origin) return null;
  const { origin: rule } = options;
  const ok = typeof rule === 'function' ? rule(origin) : typeof rule === 'string' ? rule === origin : rule.includes(origin);
  return ok ? origin : null;
}

/** CORS headers for a response; `X-Asst-Id` is exposed, or a browser could not read it. */
export function corsHeaders(options: CorsOptions, request: { readonly headers: { get(name: string): string | null } }): Record<string, string> {
  const origin = allowedOrigin(options, request.headers.get('origin'));
  if (!origin) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED,
    ...(origin === '*' ? {} : { vary: 'Origin' }),
  };
}

export function preflightResponse(options: CorsOptions, request: { readonly headers: { get(name: string): string | null } }): Response {
  const headers = corsHeaders(options, request);
  if (headers['access-control-allow-origin']) {
    headers['access-control-allow-methods'] = METHODS;
    headers['access-control-allow-headers'] = request.headers.get('access-control-request-headers') ?? 'authorization, content-type';
    headers['access-control-max-age'] = String(options.maxAgeSec ?? 600);
  }
  return new Response(null, { status: 204, headers });
}
