import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Next } from 'koa';
import type { AppContext } from '../http/state.js';

/**
 * The built dashboard (api/dashboard/public, committed: a deploy needs no build step). This module runs
 * from dist/api/dashboard/, so the folder is three levels up, at the package root.
 */
export const DASHBOARD_PUBLIC_DIR = fileURLToPath(new URL('../../../api/dashboard/public/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

/**
 * Scripts and styles from this origin only (the build has no inline script), images and media from blob:
 * URLs too (thumbnails and videos are fetched with the session's token), the API on the same origin.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Paths answered with the page: the root, and the links of the account emails (api/auth/account-email.ts:
 * /verify-email?token=…, /reset-password?token=…), which the dashboard turns into its own routes.
 */
const PAGE_PATHS = new Set(['/', '/index.html', '/verify-email', '/reset-password']);

interface Asset {
  body: Buffer;
  type: string;
}

/** The files of the build, read once: a handful of small files, served from memory. */
function loadBuild(dir: string): { index: Buffer | null; assets: Map<string, Asset> } {
  const assets = new Map<string, Asset>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) {
      const type = CONTENT_TYPES[extname(name)];
      if (type) assets.set(`/assets/${name}`, { body: readFileSync(join(assetDir, name)), type });
    }
  }
  const indexPath = join(dir, 'index.html');
  return { index: existsSync(indexPath) ? readFileSync(indexPath) : null, assets };
}

/**
 * GET / (and the PAGE_PATHS) and /assets/*: the dashboard. Every other path goes on to the API, health,
 * metrics and OpenAPI routes, so this never shadows them. Asset names carry a content hash, so they are
 * cached for a year; index.html names the current ones and is revalidated on every load. An unknown
 * asset is a 404 (a stale page asking for a file of an older build).
 */
export function serveDashboard(dir: string = DASHBOARD_PUBLIC_DIR) {
  const build = loadBuild(dir);
  return async function dashboardMiddleware(ctx: AppContext, next: Next): Promise<void> {
    const isPage = PAGE_PATHS.has(ctx.path);
    const isAsset = ctx.path.startsWith('/assets/');
    if ((!isPage && !isAsset) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (isPage) {
      if (!build.index) return next();
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('Content-Security-Policy', CSP);
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set('X-Frame-Options', 'DENY');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = build.index;
      return;
    }
    const asset = build.assets.get(ctx.path);
    if (!asset) {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Not found';
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = asset.type;
    ctx.body = asset.body;
  };
}
