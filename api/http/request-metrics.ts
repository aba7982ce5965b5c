import type { Middleware } from 'koa';
import type { FarmMetrics } from '../../core/metrics/farm-metrics.js';
import type { AppState } from './state.js';

/** The label of a request no router route took (dashboard assets, 404s): raw paths would be unbounded. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * Times every request into shotfarm_http_request_duration_seconds, labelled with the route's template
 * (`/api/v1/screenshot/:id`, as @koa/router matched it), never the raw URL: ids and keys in paths
 * would make a series per request and put secrets into the metrics. Runs outside the error envelope,
 * so the status is the one the client gets.
 */
export function requestMetrics(metrics: FarmMetrics): Middleware<AppState> {
  return async (ctx, next) => {
    const end = metrics.httpSeconds.startTimer({ method: ctx.method });
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      end({ route: typeof route === 'string' ? route : UNMATCHED_ROUTE, status: String(ctx.status) });
    }
  };
}
