import type Koa from 'koa';
import type Router from '@koa/router';

/**
 * Makes every router mounted on `app` match paths case-sensitively, as URL paths are (RFC 3986 §6.2.2.1)
 * and as the service's clients write them (all lower case).
 *
 * Why: @koa/router compiles a route's path case-insensitively unless told otherwise, but the middleware
 * a router `use()`s on its prefix (authentication, body parser, rate limit on /api/v1) is matched by a
 * case-sensitive pattern. `/API/V1/DEVICE/LIST` therefore reached its handler without authentication
 * (200 with no key; a 500 where a handler needed the caller), issue #14. Matching case-sensitively
 * everywhere, rather than normalising the path, keeps one spelling per route: any other is a 404, the
 * same answer as an unknown path.
 *
 * Call it once the routers are mounted: each layer (the nested routers' are copies held by the router
 * they are mounted on) is told it is case-sensitive, and its pattern loses the `i` flag.
 */
export function caseSensitiveRoutes<S>(app: Koa<S>): void {
  for (const mw of app.middleware as { router?: Router<S> }[]) {
    if (!mw.router) continue;
    mw.router.opts.sensitive = true;
    for (const layer of mw.router.stack) {
      layer.opts.sensitive = true;
      if (layer.regexp.flags.includes('i')) layer.regexp = new RegExp(layer.regexp.source, layer.regexp.flags.replace('i', ''));
    }
  }
}
