import { z } from 'zod';
import { fieldError } from '../../core/errors.js';
import { APP_ID_PARAMS, APP_LIST_PARAMS, DEFAULT_PAGE_SIZE } from '../options/endpoint-params.js';
import { toAppConfigRecord, type AppConfigInput } from './app-config-service.js';
import { callerOf, type AppContext } from '../http/state.js';
import { AppConfig, AppType } from './app-shapes.js';
import { defineRoute, type ApiRoute, type JsonSchema, type RouteDeps } from '../http/route.js';

const tag = 'Apps';

/** The JSON object body of /app/create and /app/update (`settings` is nested, so the flat parameter reader does not fit). */
function appBody(ctx: AppContext): AppConfigInput {
  const body = (ctx.request as { body?: unknown }).body;
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body))) return (body ?? {}) as AppConfigInput;
  throw fieldError('body', 'must be a JSON object {app_id, type, name, settings}');
}

const record = (deps: RouteDeps, row: Parameters<typeof toAppConfigRecord>[0]): Record<string, unknown> => toAppConfigRecord(row, deps.apps.codec);

/** The fields of an app configuration's body; `settings` follows the type's settings_schema (GET /app/types). */
const appFields = (required: boolean): Record<string, JsonSchema> => ({
  app_id: { type: 'string', description: `user-defined id, used in screenshot create's apps${required ? ' (required)' : ''}` },
  type: { type: 'string', description: 'app type, one of GET /app/types' + (required ? ' (required)' : ' (cannot change)') },
  name: { type: 'string', description: 'a name to recognise it by' },
  settings: { type: 'object', additionalProperties: true, description: "per the type's settings_schema; on update, secrets left out or sent as ******** are kept" },
});

/** GET /app/types, /app/list, /app/info; POST /app/create, /app/update, /app/delete (operations-not-shown.md). */
export const APP_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/app/types',
    operationId: 'listAppTypes',
    tag,
    credentials: 'account',
    summary: 'Installed app plugins, with the JSON Schema of their settings',
    response: { data: z.array(AppType), description: 'The app types' },
    handler: (_ctx, deps) => deps.apps.registry.describe(),
  }),
  defineRoute({
    method: 'get',
    path: '/app/list',
    operationId: 'listApps',
    tag,
    credentials: 'account',
    summary: 'App configurations, newest first (secrets masked)',
    query: APP_LIST_PARAMS,
    response: { data: z.array(AppConfig), description: 'The app configurations' },
    handler: async (ctx, deps, p) => (await deps.apps.configs.list(callerOf(ctx), p.limit ?? DEFAULT_PAGE_SIZE, p.offset ?? 0)).map((r) => record(deps, r)),
  }),
  defineRoute({
    method: 'get',
    path: '/app/info',
    operationId: 'getApp',
    tag,
    credentials: 'account',
    summary: 'One app configuration (secrets masked)',
    query: APP_ID_PARAMS,
    required: ['id'],
    response: { data: AppConfig, description: 'The app configuration' },
    handler: async (ctx, deps, { id }) => record(deps, await deps.apps.configs.get(callerOf(ctx), id as number)),
  }),
  defineRoute({
    method: 'post',
    path: '/app/create',
    operationId: 'createApp',
    tag,
    credentials: 'account',
    summary: 'Create an app configuration',
    extraBody: appFields(true),
    response: { data: AppConfig, description: 'The new app configuration' },
    handler: async (ctx, deps) => record(deps, await deps.apps.configs.create(callerOf(ctx), appBody(ctx))),
  }),
  defineRoute({
    method: 'post',
    path: '/app/update',
    operationId: 'updateApp',
    tag,
    credentials: 'account',
    summary: 'Update an app configuration; secrets left out or sent as ******** are kept',
    query: APP_ID_PARAMS,
    required: ['id'],
    extraBody: appFields(false),
    response: { data: AppConfig, description: 'The app configuration' },
    handler: async (ctx, deps, { id }) => record(deps, await deps.apps.configs.update(callerOf(ctx), id as number, appBody(ctx))),
  }),
  defineRoute({
    method: 'post',
    path: '/app/delete',
    operationId: 'deleteApp',
    tag,
    credentials: 'account',
    summary: 'Delete an app configuration and its runs',
    query: APP_ID_PARAMS,
    required: ['id'],
    response: { data: AppConfig, description: 'The deleted app configuration' },
    handler: async (ctx, deps, { id }) => record(deps, await deps.apps.configs.delete(callerOf(ctx), id as number)),
  }),
];
