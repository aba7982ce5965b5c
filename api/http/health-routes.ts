import { z } from 'zod';
import { databaseReachable } from '../db/connect.js';
import { invalidApiKey } from '../../core/errors.js';
import { METRICS_CHALLENGE, METRICS_REFUSAL, metricsAllowed } from '../../core/metrics/metrics-token.js';
import { defineRoute, type ApiRoute } from './route.js';

const tag = 'Operations';

/** /healthz (the process answers), /readyz (every dependency answers; 503 otherwise) and /metrics (a bearer token when SHOTFARM_METRICS_TOKEN is set). No API credential. */
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
    description: 'With SHOTFARM_METRICS_TOKEN set, only `Authorization: Bearer <token>` reads them (401 otherwise); without it, anyone who reaches the port.',
    response: { content: ['text/plain'], description: 'The metrics' },
    handler: async (ctx, deps) => {
      if (!metricsAllowed(ctx.get('authorization'), deps.config.metricsToken)) {
        ctx.set('WWW-Authenticate', METRICS_CHALLENGE);
        throw invalidApiKey(METRICS_REFUSAL);
      }
      const { contentType, body } = await deps.metrics.text();
      ctx.type = contentType;
      ctx.body = body;
    },
  }),
];
