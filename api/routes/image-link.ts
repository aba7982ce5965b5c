import Router from '@koa/router';
import type { Next } from 'koa';
import { notFound } from '../../core/errors.js';
import { FILE_PARAMS } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import type { ImageLinks } from '../retrieval/image-links.js';
import { queryOf } from '../http/query.js';
import type { AppContext, AppState } from '../http/state.js';

/**
 * GET /api/v1/screenshot/thumbnail?id=&token=: a webhook's signed image_url, for a receiver without an API
 * key; it answers the stored image (thumbnail options need the key). A request without a token is not
 * this route's: it goes on to the authenticated one. The same pattern as the batch's signed zip_url.
 */
export function signedImageRoutes(links: ImageLinks): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/api/v1/screenshot/thumbnail', async (ctx: AppContext, next: Next) => {
    const token = new URLSearchParams(ctx.querystring).get('token');
    if (token === null) return next();
    const { id } = readParams(FILE_PARAMS, queryOf(ctx), ['id']);
    // A wrong or expired token is indistinguishable from a screenshot that does not exist.
    if (!links.allows(id as number, token)) throw notFound('Screenshot');
    await links.stream(ctx, id as number);
    return undefined;
  });
  return router;
}
