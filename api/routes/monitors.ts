import Router from '@koa/router';
import type { Next } from 'koa';
import { DEFAULT_PAGE_SIZE } from '../../core/request/endpoint-params.js';
import { notFound } from '../../core/errors.js';
import { MONITOR_ID_PARAMS, MONITOR_LIST_PARAMS, MONITOR_RUNS_PARAMS } from '../../core/request/monitor-params.js';
import { readParams } from '../../core/request/read-params.js';
import { jsonBodyParams } from '../http/json-body.js';
import { queryOf } from '../http/query.js';
import { callerOf, type AppContext, type AppState } from '../http/state.js';
import type { DiffLinks } from '../monitors/diff-links.js';
import { toMonitorRecord, toMonitorRunRecord, type MonitorRunRow } from '../monitors/monitor-record.js';
import type { MonitorService } from '../monitors/monitor-service.js';
import type { ImageLinks } from '../retrieval/image-links.js';

export interface MonitorRouteDeps { monitors: MonitorService; diffLinks: DiffLinks; imageLinks: ImageLinks }

/** POST /monitor/create|update|pause|resume|delete|run, GET /monitor/list|info|runs|diff. */
export function monitorRoutes(deps: MonitorRouteDeps): Router<AppState> {
  const { monitors } = deps;
  const router = new Router<AppState>({ prefix: '/monitor' });
  const links = { diffUrl: (id: number) => deps.diffLinks.url(id), imageUrl: (id: number) => deps.imageLinks.url(id) };
  const run = (row: MonitorRunRow): Record<string, unknown> => toMonitorRunRecord(row, links);
  const idOf = (ctx: AppContext, from: 'query' | 'body'): number => readParams(MONITOR_ID_PARAMS, from === 'query' ? queryOf(ctx) : jsonBodyParams(ctx), ['id']).id as number;

  router.post('/create', async (ctx) => {
    ctx.body = { success: true, data: toMonitorRecord(await monitors.create(callerOf(ctx), jsonBodyParams(ctx))) };
  });

  router.get('/list', async (ctx) => {
    const p = readParams(MONITOR_LIST_PARAMS, queryOf(ctx));
    ctx.body = { success: true, data: (await monitors.list(callerOf(ctx), p.limit ?? DEFAULT_PAGE_SIZE, p.offset ?? 0)).map(toMonitorRecord) };
  });

  router.get('/info', async (ctx) => {
    ctx.body = { success: true, data: toMonitorRecord(await monitors.get(callerOf(ctx), idOf(ctx, 'query'))) };
  });

  router.post('/update', async (ctx) => {
    const params = jsonBodyParams(ctx);
    const { id } = readParams(MONITOR_ID_PARAMS, params, ['id']);
    ctx.body = { success: true, data: toMonitorRecord(await monitors.update(callerOf(ctx), id as number, params)) };
  });

  router.post('/pause', async (ctx) => {
    ctx.body = { success: true, data: toMonitorRecord(await monitors.pause(callerOf(ctx), idOf(ctx, 'body'))) };
  });

  router.post('/resume', async (ctx) => {
    ctx.body = { success: true, data: toMonitorRecord(await monitors.resume(callerOf(ctx), idOf(ctx, 'body'))) };
  });

  router.post('/delete', async (ctx) => {
    await monitors.delete(callerOf(ctx), idOf(ctx, 'body'));
    ctx.body = { success: true, data: null };
  });

  router.post('/run', async (ctx) => {
    ctx.body = { success: true, data: run(await monitors.runNow(callerOf(ctx), idOf(ctx, 'body'))) };
  });

  router.get('/runs', async (ctx) => {
    const p = readParams(MONITOR_RUNS_PARAMS, queryOf(ctx), ['id']);
    ctx.body = { success: true, data: (await monitors.runs(callerOf(ctx), p.id as number, p.limit ?? DEFAULT_PAGE_SIZE, p.offset ?? 0)).map(run) };
  });

  // The diff image of a run's screenshot (id = the screenshot id, as in GET /monitor/runs).
  router.get('/diff', async (ctx) => {
    await deps.diffLinks.stream(ctx, callerOf(ctx).companyId, idOf(ctx, 'query'));
  });

  return router;
}

/**
 * GET /api/v1/monitor/diff?id=&token=: the signed diff_url of a monitor.changed event, for a receiver
 * without an API key. A request without a token goes on to the authenticated route.
 */
export function signedDiffRoutes(links: DiffLinks): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/api/v1/monitor/diff', async (ctx: AppContext, next: Next) => {
    const token = new URLSearchParams(ctx.querystring).get('token');
    if (token === null) return next();
    const { id } = readParams(MONITOR_ID_PARAMS, queryOf(ctx), ['id']);
    if (!links.allows(id as number, token)) throw notFound('Diff image');
    await links.stream(ctx, null, id as number);
    return undefined;
  });
  return router;
}
