import type { Middleware } from 'koa';
import type { FarmMetrics } from '../../core/metrics/farm-metrics.js';
import type { AppState } from './state.js';

/** The label of a request no router route took (dashboard assets, 404s): raw paths would be unbounded. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** What @koa/router leaves in ctx.matched: every layer whose path matched, middleware (`use`) and routes. */
interface MatchedLayer {
  path: string | RegExp;
  methods: string[];
}

/**
 * The template of the route that matched `method` (the last, as the router runs them), or UNMATCHED_ROUTE.
 * Read from the matched layers rather than ctx._matchedRoute: a request refused by a router's middleware
 * (401 from authentication) leaves that middleware's pattern there, `/api/v1(?:\/|$)` for every route.
 */
function routeTemplate(method: string, matched: MatchedLayer[] | undefined): string {
  const route = (matched ?? []).findLast((layer) => layer.methods.includes(method));
  return route ? String(route.path) : UNMATCHED_ROUTE;
}

/**
 * Times every request into shotfarm_http_request_duration_seconds, labelled with the route's template
 * (`/api/v1/screenshot/info`, as @koa/router matched it, even when its middleware refused the request), never the raw URL: ids and keys in paths
 * would make a series per request and put secrets into the metrics. Runs outside the error envelope,
 * so the status is the one the client gets.
 */
export function requestMetrics(metrics: FarmMetrics): Middleware<AppState> {
  return async (ctx, next) => {
    const end = metrics.httpSeconds.startTimer({ method: ctx.method });
    try {
      await next();
    } finally {
      end({ route: routeTemplate(ctx.method, (ctx as { matched?: MatchedLayer[] }).matched), status: String(ctx.status) });
    }
  };
}
