import Router from '@koa/router';
import type { Next } from 'koa';
import { notFound } from '../../core/errors.js';
import { BATCH_ID_PARAMS } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import type { BatchLinks } from '../batches/batch-links.js';
import { queryOf } from '../http/query.js';
import type { AppContext, AppState } from '../http/state.js';

/**
 * GET /api/v1/batch/download?id=&token=: the signed zip_url, for a browser without an API key.
 * A request without a token is not this route's: it goes on to the authenticated one.
 */
export function signedDownloadRoutes(links: BatchLinks): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/api/v1/batch/download', async (ctx: AppContext, next: Next) => {
    const token = new URLSearchParams(ctx.querystring).get('token');
    if (token === null) return next();
    const { id } = readParams(BATCH_ID_PARAMS, queryOf(ctx), ['id']);
    const batch = await links.batchForToken(id as number, token);
    // A wrong or expired token is indistinguishable from a batch that does not exist.
    if (!batch) throw notFound('Batch');
    await links.stream(ctx, batch);
    return undefined;
  });
  return router;
}
