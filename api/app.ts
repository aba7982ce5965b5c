import Koa from 'koa';
import type { Config } from '../core/config/config.js';
import type { Db } from './db/connect.js';
import type { Logger } from '../core/logger.js';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { JwtService } from './accounts/jwt.js';
import { authenticate } from './auth/authenticate.js';
import { bodyParser } from './http/body-parser.js';
import { caseSensitiveRoutes } from './http/case-sensitive-routes.js';
import { errorEnvelope } from './http/error-envelope.js';
import { rateLimit } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { accessLog } from './http/access-log.js';
import { clientAddress } from './http/client-address.js';
import { addressLimitKey } from './http/forwarded-client.js';
import type { AppState } from './http/state.js';
import type { ApiRoute } from './http/route.js';
import type { CrawlService } from './crawls/crawl-service.js';
import type { BatchService } from './batches/batch-service.js';
import type { BatchLinks } from './batches/batch-links.js';
import type { ImageLinks } from './retrieval/image-links.js';
import type { ReadinessCheck } from './http/health-routes.js';
import type { ScreenshotService } from './screenshots/screenshot-service.js';
import type { NodeRegistry } from '../core/contracts/node-registry.js';
import type { JobQueue } from '../core/contracts/job-queue.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import type { ScreenshotEvents } from './screenshots/screenshot-events.js';
import type { FarmMetrics } from '../core/metrics/farm-metrics.js';
import { requestMetrics } from './http/request-metrics.js';
import { buildAuthService } from './auth/build-auth.js';
import { impersonationAudit } from './auth/impersonation-audit.js';
import type { Billing } from './billing/billing.js';
import type { Mailer } from '../core/contracts/mailer.js';
import type { AppServices } from './apps/app-services.js';
import { serveDashboard } from './dashboard/serve-dashboard.js';
import type { MonitorService } from './monitors/monitor-service.js';
import type { DiffLinks } from './monitors/diff-links.js';
import { serveApiReference } from './dashboard/serve-api-reference.js';
import { buildRouters } from './http/mount-routes.js';
import { buildOpenApi } from './http/openapi-document.js';
import { ROUTES } from './route-table.js';
import type { RouteDeps } from './http/route.js';

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  jwt: JwtService;
  rateLimiter: RateLimiterAbstract | null;
  screenshots: ScreenshotService;
  objects: ObjectStore;
  events: ScreenshotEvents;
  registry: NodeRegistry;
  /** the farm's queue: its depth and age per browser for the admin's Nodes page */
  queue: JobQueue;
  metrics: FarmMetrics;
  crawls: CrawlService;
  batches: BatchService;
  batchLinks: BatchLinks;
  imageLinks: ImageLinks;
  apps: AppServices;
  /** page monitors (issue 20) and the signed links of their runs' diff images */
  monitors: MonitorService;
  diffLinks: DiffLinks;
  /** account email (the container's Mailer) */
  mailer: Mailer;
  /** readiness checks beyond the database (queue, storage) */
  readiness?: ReadinessCheck[];
  /** billing services over the container's payment provider (the control plane schedules their renewal) */
  billing: Billing;
}

/** JSON bodies above 1 MiB are refused (413): no operation here needs more. */
const JSON_BODY_LIMIT = '1mb';

/** The control plane's HTTP application: public health/OpenAPI routes, then authenticated /api/v1 (api/route-table.ts). */
export function buildApp(deps: AppDeps, routes: readonly ApiRoute[] = ROUTES): Koa<AppState> {
  const app = new Koa<AppState>();
  app.use(clientAddress(deps.config.trustedProxies));
  app.use(requestId);
  app.use(accessLog(deps.log));
  app.use(requestMetrics(deps.metrics));
  app.use(errorEnvelope(deps.log));

  const routeDeps: RouteDeps = {
    ...deps,
    auth: buildAuthService(deps),
    openApiDocument: buildOpenApi(routes, deps.config.publicUrl),
  };
  const jsonBody = bodyParser({ json: true, multipart: false, urlencoded: true, jsonLimit: JSON_BODY_LIMIT, formLimit: JSON_BODY_LIMIT, textLimit: JSON_BODY_LIMIT });
  const routers = buildRouters(routes, routeDeps, {
    // Signup, login and the email/password flows are how a client gets a credential: they take none, and
    // are rate-limited per client address instead.
    anonymous: [rateLimit(deps.rateLimiter, (ctx) => `address:${addressLimitKey(ctx.ip)}`), jsonBody],
    api: [authenticate(deps.db, deps.jwt), impersonationAudit(deps.log), rateLimit(deps.rateLimiter)],
    jsonBody,
  });

  // Health, metrics and openapi.json.
  app.use(routers.open.routes());
  // The web dashboard: only GET / and /assets/*, and the API reference: only GET /docs and its script;
  // neither shadows the paths above or /api/v1.
  app.use(serveDashboard());
  app.use(serveApiReference());
  // A signed zip_url, a webhook's signed image_url or a monitor.changed event's diff_url answers without a credential; without a token the
  // request goes on to authentication.
  app.use(routers.signedLinks.routes());
  app.use(routers.anonymous.routes());
  app.use(routers.api.routes());
  app.use(routers.api.allowedMethods({ throw: true }));
  caseSensitiveRoutes(app);
  return app;
}
