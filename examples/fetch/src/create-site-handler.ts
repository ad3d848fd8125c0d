import type { ChatHandlerLike } from '@chatwire/server/node';
import type { PageAssets } from './bundle-page.js';
import type { DevSignInResult } from './create-dev-sign-in.js';

/** What the page reads from `/config.json`. */
export interface PageConfig {
  basePath: string;
  devSignIn: boolean;
  demoModel: boolean;
  defaultModelId: string;
  models: Array<{ modelId: string; provider: string; available: boolean }>;
  /** Share links are on: the page offers "Share". */
  sharing: boolean;
}

/**
 * The example's own routes as one fetch handler (so the same chatwire adapters mount it): the chat page
 * at `/`, its script and styles, `/config.json`, and `POST /dev/sign-in` in dev mode.
 */
export function createSiteHandler(options: {
  assets: PageAssets;
  config: PageConfig;
  devSignIn: ((input: unknown) => Promise<DevSignInResult>) | null;
}): ChatHandlerLike {
  const { assets, config, devSignIn } = options;
  const files: Record<string, { body: string; type: string }> = {
    '/': { body: assets.html, type: 'text/html; charset=utf-8' },
    '/app.js': { body: assets.js, type: 'text/javascript; charset=utf-8' },
    '/styles.css': { body: assets.css, type: 'text/css; charset=utf-8' },
    '/config.json': { body: JSON.stringify(config), type: 'application/json' },
    '/shared.js': { body: assets.sharedJs, type: 'text/javascript; charset=utf-8' },
  };
  // The read-only view of a shared chat: its token is in the path, so the page is never indexed and never
  // sends it on as a Referer.
  const isSharedView = (pathname: string): boolean => config.sharing && pathname.startsWith('/shared/');
  const sharedHeaders = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex',
    'referrer-policy': 'no-referrer',
  };
  const matches = (pathname: string): boolean =>
    pathname in files || isSharedView(pathname) || (devSignIn !== null && pathname === '/dev/sign-in');

  const handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const file = files[pathname];
    if (file && (request.method === 'GET' || request.method === 'HEAD')) {
      return new Response(file.body, { headers: { 'content-type': file.type, 'cache-control': 'no-store' } });
    }
    if (isSharedView(pathname) && (request.method === 'GET' || request.method === 'HEAD')) {
      return new Response(assets.sharedHtml, { headers: sharedHeaders });
    }
    if (pathname === '/dev/sign-in' && devSignIn && request.method === 'POST') {
      const body: unknown = await request.json().catch(() => ({}));
      return Response.json(await devSignIn(body));
    }
    return Response.json({ error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${pathname}` } }, { status: 404 });
  };
  return Object.assign(handle, { basePath: '/', matches });
}
