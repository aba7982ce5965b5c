import Router from '@koa/router';
import { fieldError } from '../../core/errors.js';
import { APP_ID_PARAMS, APP_LIST_PARAMS, DEFAULT_PAGE_SIZE } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import type { AppRegistry } from '../../plugins/registry.js';
import { toAppConfigRecord, type AppConfigInput, type AppConfigService } from '../apps/app-config-service.js';
import type { AppSettingsCodec } from '../apps/app-settings-codec.js';
import { jsonBodyParams } from '../http/json-body.js';
import { queryOf } from '../http/query.js';
import { callerOf, type AppContext, type AppState } from '../http/state.js';

/** The JSON object body of /app/create and /app/update (`settings` is nested, so the flat parameter reader does not fit). */
function appBody(ctx: AppContext): AppConfigInput {
  const body = (ctx.request as { body?: unknown }).body;
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body))) return (body ?? {}) as AppConfigInput;
  throw fieldError('body', 'must be a JSON object {app_id, type, name, settings}');
}

/** GET /app/types, /app/list, /app/info; POST /app/create, /app/update, /app/delete (operations-not-shown.md). */
export function appRoutes(deps: { registry: AppRegistry; configs: AppConfigService; codec: AppSettingsCodec }): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/app' });
  const record = (row: Parameters<typeof toAppConfigRecord>[0]): Record<string, unknown> => toAppConfigRecord(row, deps.codec);

  router.get('/types', (ctx) => {
    callerOf(ctx);
    ctx.body = { success: true, data: deps.registry.describe() };
  });

  router.get('/list', async (ctx) => {
    const p = readParams(APP_LIST_PARAMS, queryOf(ctx));
    ctx.body = { success: true, data: (await deps.configs.list(callerOf(ctx), p.limit ?? DEFAULT_PAGE_SIZE, p.offset ?? 0)).map(record) };
  });

  router.get('/info', async (ctx) => {
    const { id } = readParams(APP_ID_PARAMS, queryOf(ctx), ['id']);
    ctx.body = { success: true, data: record(await deps.configs.get(callerOf(ctx), id as number)) };
  });

  router.post('/create', async (ctx) => {
    ctx.body = { success: true, data: record(await deps.configs.create(callerOf(ctx), appBody(ctx))) };
  });

  router.post('/update', async (ctx) => {
    const { id } = readParams(APP_ID_PARAMS, jsonBodyParams(ctx), ['id']);
    ctx.body = { success: true, data: record(await deps.configs.update(callerOf(ctx), id as number, appBody(ctx))) };
  });

  router.post('/delete', async (ctx) => {
    const { id } = readParams(APP_ID_PARAMS, jsonBodyParams(ctx), ['id']);
    ctx.body = { success: true, data: record(await deps.configs.delete(callerOf(ctx), id as number)) };
  });

  return router;
}
