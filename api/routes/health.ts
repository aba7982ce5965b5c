import Router from '@koa/router';
import type { AppState } from '../http/state.js';

/** A named readiness check: the database, the queue, the storage. */
export type ReadinessCheck = { name: string; check: () => Promise<boolean> };

/** /healthz (the process answers) and /readyz (every dependency answers; 503 otherwise). Unauthenticated. */
export function healthRoutes(checks: ReadinessCheck[]): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const results = Object.fromEntries(await Promise.all(checks.map(async (c) => [c.name, await c.check().catch(() => false)] as const)));
    const ready = Object.values(results).every(Boolean);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'unavailable', checks: results };
  });
  return router;
}
