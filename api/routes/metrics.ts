import Router from '@koa/router';
import type { FarmMetrics } from '../../core/metrics/farm-metrics.js';
import type { AppState } from '../http/state.js';

/** GET /metrics: Prometheus text format (unauthenticated, like /healthz). */
export function metricsRoutes(metrics: FarmMetrics): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/metrics', async (ctx) => {
    const { contentType, body } = await metrics.text();
    ctx.type = contentType;
    ctx.body = body;
  });
  return router;
}
