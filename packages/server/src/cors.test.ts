import { describe, expect, it } from 'vitest';
import { preflightResponse } from './cors.js';
import { buildOpenApiDocument } from './openapi/build-openapi-document.js';

const document = buildOpenApiDocument({ basePath: '/api/ai' }) as { paths: Record<string, Record<string, unknown>> };
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head']);

describe('preflightResponse', () => {
  it('allows every method a documented route answers (a browser refuses a cross-origin call whose method is missing)', () => {
    const used = new Set(Object.values(document.paths).flatMap((item) => Object.keys(item).filter((k) => HTTP_METHODS.has(k)).map((k) => k.toUpperCase())));
    expect(used).toContain('PUT'); // the feedback route
    const res = preflightResponse({ origin: '*' }, new Request('http://x/api/ai/chats', { method: 'OPTIONS', headers: { origin: 'https://app.example' } }));
    const allowed = (res.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
    for (const method of used) expect(allowed, method).toContain(method);
  });

  it('says nothing to an origin that is not allowed', () => {
    const res = preflightResponse({ origin: ['https://app.example'] }, new Request('http://x/', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } }));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
