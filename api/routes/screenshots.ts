import Router from '@koa/router';
import { notFound } from '../../core/errors.js';
import { DEFAULT_PAGE_SIZE, SCREENSHOT_DELETE_PARAMS, SCREENSHOT_INFO_PARAMS, SCREENSHOT_LIST_PARAMS, SCREENSHOT_SEARCH_PARAMS, THUMBNAIL_PARAMS } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import { toScreenshotRecord } from '../../core/screenshot-record.js';
import { queryOf } from '../http/query.js';
import { callerOf, type AppState } from '../http/state.js';
import type { ScreenshotService } from '../screenshots/screenshot-service.js';

/** GET /screenshot/*: create, info, list, search, delete and thumbnail. */
export function screenshotRoutes(service: ScreenshotService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/screenshot' });

  router.get('/create', async (ctx) => {
    const rows = await service.create(callerOf(ctx), queryOf(ctx));
    ctx.body = { success: true, data: rows.map((r) => toScreenshotRecord(r, 'create')) };
  });

  router.get('/info', async (ctx) => {
    const { id } = readParams(SCREENSHOT_INFO_PARAMS, queryOf(ctx), ['id']);
    const caller = callerOf(ctx);
    const row = await service.get(caller, id as number);
    const kinds = await service.outputKinds(caller, row.id);
    ctx.body = { success: true, data: { ...toScreenshotRecord(row), has_html: kinds.has('html'), has_pdf: kinds.has('pdf'), has_video: kinds.has('video') } };
  });

  router.get('/list', async (ctx) => {
    const p = readParams(SCREENSHOT_LIST_PARAMS, queryOf(ctx));
    const rows = await service.list(callerOf(ctx), { status: p.status, country: p.country, tag: p.tag, limit: p.limit ?? DEFAULT_PAGE_SIZE, offset: p.offset ?? 0 });
    ctx.body = { success: true, data: rows.map((r) => toScreenshotRecord(r)) };
  });

  router.get('/search', async (ctx) => {
    const p = readParams(SCREENSHOT_SEARCH_PARAMS, queryOf(ctx), ['url']);
    const rows = await service.list(callerOf(ctx), { status: p.status, country: p.country, tag: p.tag, urlContains: p.url, limit: p.limit ?? DEFAULT_PAGE_SIZE, offset: p.offset ?? 0 });
    ctx.body = { success: true, data: rows.map((r) => toScreenshotRecord(r)) };
  });

  router.get('/delete', async (ctx) => {
    const p = readParams(SCREENSHOT_DELETE_PARAMS, queryOf(ctx), ['id']);
    const scope = p.data ?? 'all';
    await service.delete(callerOf(ctx), p.id as number, scope);
    ctx.body = { success: true, data: { id: p.id, deleted: scope } };
  });

  router.get('/thumbnail', async (ctx) => {
    const p = readParams(THUMBNAIL_PARAMS, queryOf(ctx), ['id']);
    const caller = callerOf(ctx);
    const row = await service.get(caller, p.id as number);
    const kinds = await service.outputKinds(caller, row.id);
    if (row.status !== 'finished' || !kinds.has('image')) throw notFound('Screenshot image (not ready, or no image was captured)');
    // Rendering the stored image arrives with object storage (the farm issue).
    throw notFound('Screenshot image');
  });

  return router;
}
