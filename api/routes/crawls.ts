import Router from '@koa/router';
import { CRAWL_ID_PARAMS, CRAWL_LIST_PARAMS } from '../../core/request/crawl-params.js';
import { DEFAULT_PAGE_SIZE } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import { toScreenshotRecord } from '../../core/screenshot-record.js';
import { toCrawlRecord } from '../crawls/crawl-record.js';
import type { CrawlService } from '../crawls/crawl-service.js';
import { jsonBodyParams } from '../http/json-body.js';
import { queryOf } from '../http/query.js';
import { callerOf, type AppState } from '../http/state.js';

/** POST /crawl/create, GET /crawl/info, GET /crawl/list and POST /crawl/cancel. */
export function crawlRoutes(crawls: CrawlService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/crawl' });

  router.post('/create', async (ctx) => {
    const crawl = await crawls.create(callerOf(ctx), jsonBodyParams(ctx));
    ctx.body = { success: true, data: toCrawlRecord(crawl) };
  });

  router.get('/info', async (ctx) => {
    const { id } = readParams(CRAWL_ID_PARAMS, queryOf(ctx), ['id']);
    const { crawl, screenshots } = await crawls.get(callerOf(ctx), id as number);
    ctx.body = { success: true, data: { ...toCrawlRecord(crawl), screenshots: screenshots.map((s) => toScreenshotRecord(s)) } };
  });

  router.get('/list', async (ctx) => {
    const p = readParams(CRAWL_LIST_PARAMS, queryOf(ctx));
    const rows = await crawls.list(callerOf(ctx), p.limit ?? DEFAULT_PAGE_SIZE, p.offset ?? 0);
    ctx.body = { success: true, data: rows.map((r) => toCrawlRecord(r)) };
  });

  router.post('/cancel', async (ctx) => {
    const { id } = readParams(CRAWL_ID_PARAMS, jsonBodyParams(ctx), ['id']);
    ctx.body = { success: true, data: toCrawlRecord(await crawls.cancel(callerOf(ctx), id as number)) };
  });

  return router;
}
