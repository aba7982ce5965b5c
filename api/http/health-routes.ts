import { z } from 'zod';
import { databaseReachable } from '../db/connect.js';
import { defineRoute, type ApiRoute } from './route.js';

const tag = 'Operations';

/** /healthz (the process answers), /readyz (every dependency answers; 503 otherwise) and /metrics. Unauthenticated. */
export const HEALTH_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/healthz',
    outside: true,
    operationId: 'healthz',
    tag,
    credentials: 'none',
    summary: 'The process answers',
    response: { json: z.object({ status: z.literal('ok') }), description: 'Alive' },
    handler: (ctx) => {
      ctx.body = { status: 'ok' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/readyz',
    outside: true,
    operationId: 'readyz',
    tag,
    credentials: 'none',
    summary: 'Every dependency (database, queue, storage) answers; 503 otherwise',
    response: { json: z.object({ status: z.enum(['ready', 'unavailable']), checks: z.record(z.string(), z.boolean()) }), description: 'Ready (503 with the same shape when not)' },
    handler: async (ctx, deps) => {
      const checks = [{ name: 'database', check: () => databaseReachable(deps.db) }, ...(deps.readiness ?? [])];
      const results = Object.fromEntries(await Promise.all(checks.map(async (c) => [c.name, await c.check().catch(() => false)] as const)));
      const ready = Object.values(results).every(Boolean);
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ready' : 'unavailable', checks: results };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/metrics',
    outside: true,
    operationId: 'metrics',
    tag,
    credentials: 'none',
    summary: 'Prometheus metrics (text exposition format)',
    response: { content: ['text/plain'], description: 'The metrics' },
    handler: async (ctx, deps) => {
      const { contentType, body } = await deps.metrics.text();
      ctx.type = contentType;
      ctx.body = body;
    },
  }),
];
