import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { CREATE_PARAMS } from '../options/create-params.js';
import { DEFAULT_PAGE_SIZE } from '../options/endpoint-params.js';
import { MONITOR_ID_PARAMS, MONITOR_LIST_PARAMS, MONITOR_OWN_PARAMS, MONITOR_RUNS_PARAMS } from './monitor-params.js';
import { readParams } from '../options/read-params.js';
import { bodyWithinLimits, sourceBodyParser } from '../http/source-limits.js';
import { queryOf } from '../http/query.js';
import { callerOf } from '../http/state.js';
import { toMonitorRecord, toMonitorRunRecord, type MonitorRunRow } from './monitor-record.js';
import { Monitor, MonitorRun } from './monitor-shapes.js';
import { defineRoute, type ApiRoute, type RouteDeps } from '../http/route.js';

const tag = 'Monitors';

const run = (deps: RouteDeps, row: MonitorRunRow): Record<string, unknown> => toMonitorRunRecord(row, { diffUrl: (id) => deps.diffLinks.url(id), imageUrl: (id) => deps.imageLinks.url(id) });

/** POST /monitor/create|update|pause|resume|delete|run, GET /monitor/list|info|runs|diff. */
export const MONITOR_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'post',
    path: '/monitor/create',
    operationId: 'createMonitor',
    tag,
    credentials: 'account',
    summary: 'Watch a page: each run is a screenshot compared with the previous one',
    description:
      'A JSON body (the same names are accepted in the query): `url` (or `source_html` / `source_markdown`), `interval` (seconds, at least 300) or `cron`, `threshold` (percent of changed pixels), `ignore` (CSS selectors and {x, y, width, height} boxes), and every screenshot create option. Each run is charged as a screenshot.',
    body: { ...CREATE_PARAMS, ...MONITOR_OWN_PARAMS },
    // The monitor service validates the monitor's fields and every screenshot option itself.
    validatedBy: 'handler',
    response: { data: Monitor, description: 'The new monitor' },
    // A source among the options: the body takes it up to SHOTFARM_SOURCE_BODY_MAX_BYTES, as POST /screenshot/create does.
    upload: { parser: (deps) => sourceBodyParser(deps.config.sources), mediaTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    handler: async (ctx, deps) => toMonitorRecord(await deps.monitors.create(callerOf(ctx), bodyWithinLimits(ctx, deps.config.sources))),
  }),

  defineRoute({
    method: 'get',
    path: '/monitor/list',
    operationId: 'listMonitors',
    tag,
    credentials: 'account',
    summary: 'Monitors, newest first',
    query: MONITOR_LIST_PARAMS,
    response: { data: z.array(Monitor), description: 'The monitors' },
    handler: async (ctx, deps, p) => (await deps.monitors.list(callerOf(ctx), p.limit ?? DEFAULT_PAGE_SIZE, p.offset ?? 0)).map(toMonitorRecord),
  }),

  defineRoute({
    method: 'get',
    path: '/monitor/info',
    operationId: 'getMonitor',
    tag,
    credentials: 'account',
    summary: 'One monitor',
    query: MONITOR_ID_PARAMS,
    required: ['id'],
    response: { data: Monitor, description: 'The monitor' },
    handler: async (ctx, deps, { id }) => toMonitorRecord(await deps.monitors.get(callerOf(ctx), id as number)),
  }),

  defineRoute({
    method: 'post',
    path: '/monitor/update',
    operationId: 'updateMonitor',
    tag,
    credentials: 'account',
    summary: 'Change a monitor: {id, ...the fields to change}; the whole is validated again',
    body: { ...MONITOR_ID_PARAMS, ...CREATE_PARAMS, ...MONITOR_OWN_PARAMS },
    required: ['id'],
    validatedBy: 'handler',
    response: { data: Monitor, description: 'The monitor as changed' },
    upload: { parser: (deps) => sourceBodyParser(deps.config.sources), mediaTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    handler: async (ctx, deps) => {
      const params = bodyWithinLimits(ctx, deps.config.sources);
      const { id } = readParams(MONITOR_ID_PARAMS, params, ['id']);
      return toMonitorRecord(await deps.monitors.update(callerOf(ctx), id as number, params));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/monitor/pause',
    operationId: 'pauseMonitor',
    tag,
    credentials: 'account',
    summary: "Stop a monitor's schedule",
    body: MONITOR_ID_PARAMS,
    required: ['id'],
    response: { data: Monitor, description: 'The monitor, status paused' },
    handler: async (ctx, deps, { id }) => toMonitorRecord(await deps.monitors.pause(callerOf(ctx), id as number)),
  }),

  defineRoute({
    method: 'post',
    path: '/monitor/resume',
    operationId: 'resumeMonitor',
    tag,
    credentials: 'account',
    summary: "Start a paused monitor's schedule again from now (paused periods are not caught up)",
    body: MONITOR_ID_PARAMS,
    required: ['id'],
    response: { data: Monitor, description: 'The monitor, status active' },
    handler: async (ctx, deps, { id }) => toMonitorRecord(await deps.monitors.resume(callerOf(ctx), id as number)),
  }),

  defineRoute({
    method: 'post',
    path: '/monitor/delete',
    operationId: 'deleteMonitor',
    tag,
    credentials: 'account',
    summary: 'Delete a monitor and its runs (its screenshots stay)',
    body: MONITOR_ID_PARAMS,
    required: ['id'],
    response: { data: z.null(), description: 'null' },
    handler: async (ctx, deps, { id }) => {
      await deps.monitors.delete(callerOf(ctx), id as number);
      return null;
    },
  }),

  defineRoute({
    method: 'post',
    path: '/monitor/run',
    operationId: 'runMonitor',
    tag,
    credentials: 'account',
    summary: 'One run now, outside the schedule (charged as a screenshot)',
    body: MONITOR_ID_PARAMS,
    required: ['id'],
    response: { data: MonitorRun, description: 'The run, status processing' },
    handler: async (ctx, deps, { id }) => run(deps, await deps.monitors.runNow(callerOf(ctx), id as number)),
  }),

  defineRoute({
    method: 'get',
    path: '/monitor/runs',
    operationId: 'listMonitorRuns',
    tag,
    credentials: 'account',
    summary: "A monitor's runs, newest first: screenshot, change_ratio, diff image",
    query: MONITOR_RUNS_PARAMS,
    required: ['id'],
    response: { data: z.array(MonitorRun), description: 'The runs' },
    handler: async (ctx, deps, p) => (await deps.monitors.runs(callerOf(ctx), p.id as number, p.limit ?? DEFAULT_PAGE_SIZE, p.offset ?? 0)).map((r) => run(deps, r)),
  }),

  defineRoute({
    method: 'get',
    path: '/monitor/diff',
    operationId: 'getMonitorDiff',
    tag,
    credentials: 'account',
    summary: "The diff image of a run (id = the run's screenshot id)",
    description: "With `token` (a monitor.changed event's or a run's signed diff_url) it answers without a credential.",
    query: MONITOR_ID_PARAMS,
    required: ['id'],
    response: { content: ['image/png'], description: 'The diff image: changed pixels in red over the new shot, faded' },
    signedLink: async (ctx, deps) => {
      const token = new URLSearchParams(ctx.querystring).get('token') as string;
      const { id } = readParams(MONITOR_ID_PARAMS, queryOf(ctx), ['id']);
      // A wrong or expired token is indistinguishable from a diff image that does not exist.
      if (!deps.diffLinks.allows(id as number, token)) throw notFound('Diff image');
      await deps.diffLinks.stream(ctx, null, id as number);
    },
    handler: async (ctx, deps, { id }) => {
      await deps.diffLinks.stream(ctx, callerOf(ctx).companyId, id as number);
    },
  }),
];
