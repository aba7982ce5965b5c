import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Next } from 'koa';
import type { AppContext } from '../http/state.js';

/**
 * GET /docs: the API reference, openapi.json rendered by Redoc's standalone bundle, served from
 * node_modules (no CDN: the page works offline and tells no third party who reads it).
 */
const REDOC_PATH = '/docs/redoc.standalone.js';

/** The bundle is one self-contained file; the `<redoc>` element starts it (no inline script needed). */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>shotfarm API reference</title>
</head>
<body>
<redoc spec-url="/api/v1/openapi.json"></redoc>
<script src="${REDOC_PATH}"></script>
</body>
</html>
`;

/**
 * Only this origin: the bundle, the document it fetches, its search worker (a blob: URL) and the styles it
 * injects. Images from elsewhere are refused, which keeps the bundle's one remote image (Redocly's logo
 * in the sidebar footer) from being fetched.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Redoc's bundle (about 1 MB), read on the first request for it and kept. A missing package is an error, not an empty page. */
let bundle: Buffer | undefined;
const redocBundle = (): Buffer => (bundle ??= readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js')));

export function serveApiReference() {
  return async function apiReferenceMiddleware(ctx: AppContext, next: Next): Promise<void> {
    if ((ctx.path !== '/docs' && ctx.path !== REDOC_PATH) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.path === REDOC_PATH) {
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = redocBundle();
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  };
}
