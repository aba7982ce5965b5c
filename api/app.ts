import Koa from 'koa';
import Router from '@koa/router';
import type { Config } from '../core/config/config.js';
import type { Db } from '../core/db/connect.js';
import { databaseReachable } from '../core/db/connect.js';
import type { Logger } from '../core/logger.js';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { JwtService } from './accounts/jwt.js';
import { authenticate } from './http/authenticate.js';
import { bodyParser } from './http/body-parser.js';
import { caseSensitiveRoutes } from './http/case-sensitive-routes.js';
import { errorEnvelope } from './http/error-envelope.js';
import { rateLimit } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { clientAddress } from './http/client-address.js';
import { addressLimitKey } from '../core/net/forwarded-client.js';
import type { AppState } from './http/state.js';
import { accountRoutes } from './routes/account.js';
import { batchRoutes } from './routes/batches.js';
import { crawlRoutes } from './routes/crawls.js';
import type { CrawlService } from './crawls/crawl-service.js';
import type { BatchService } from './batches/batch-service.js';
import type { BatchLinks } from './batches/batch-links.js';
import { signedDownloadRoutes } from './routes/batch-download.js';
import type { ImageLinks } from './retrieval/image-links.js';
import { signedImageRoutes } from './routes/image-link.js';
import { deviceRoutes } from './routes/devices.js';
import { healthRoutes, type ReadinessCheck } from './routes/health.js';
import { openApiRoutes } from './routes/openapi.js';
import { screenshotRoutes } from './routes/screenshots.js';
import type { ScreenshotService } from './screenshots/screenshot-service.js';
import type { NodeRegistry } from '../core/contracts/node-registry.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import type { ScreenshotEvents } from './farm/screenshot-events.js';
import { adminRoutes } from './routes/admin.js';
import type { FarmMetrics } from '../core/metrics/farm-metrics.js';
import { metricsRoutes } from './routes/metrics.js';
import { requestMetrics } from './http/request-metrics.js';
import { buildAuthService } from './auth/build-auth.js';
import { impersonationAudit } from './auth/impersonation-audit.js';
import { publicAuthRoutes, sessionRoutes } from './routes/auth.js';
import { keyRoutes } from './routes/keys.js';
import { adminUserRoutes } from './routes/admin-users.js';
import { createBilling, type Billing } from './billing/billing.js';
import { billingRoutes } from './routes/billing.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { adminOverviewRoutes } from './routes/admin-overview.js';
import { appRoutes } from './routes/apps.js';
import type { AppServices } from './apps/app-services.js';
import { serveDashboard } from './dashboard/serve-dashboard.js';
import type { MonitorService } from './monitors/monitor-service.js';
import type { DiffLinks } from './monitors/diff-links.js';
import { monitorRoutes, signedDiffRoutes } from './routes/monitors.js';

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
  metrics: FarmMetrics;
  crawls: CrawlService;
  batches: BatchService;
  batchLinks: BatchLinks;
  imageLinks: ImageLinks;
  apps: AppServices;
  monitors: MonitorService;
  diffLinks: DiffLinks;
  /** readiness checks beyond the database (queue, storage) */
  readiness?: ReadinessCheck[];
  /** billing services (the control plane's, whose renewal it schedules); absent: built here, offline provider */
  billing?: Billing;
}

/** JSON bodies above 1 MiB are refused (413): no operation here needs more. */
const JSON_BODY_LIMIT = '1mb';

/** The control plane's HTTP application: public health/OpenAPI routes, then authenticated /api/v1. */
export function buildApp(deps: AppDeps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.use(clientAddress(deps.config.trustedProxies));
  app.use(requestId);
  app.use(requestMetrics(deps.metrics));
  app.use(errorEnvelope(deps.log));

  const health = healthRoutes([{ name: 'database', check: () => databaseReachable(deps.db) }, ...(deps.readiness ?? [])]);
  const openapi = openApiRoutes(deps.config.publicUrl);
  app.use(health.routes());
  app.use(openapi.routes());
  app.use(metricsRoutes(deps.metrics).routes());
  // The web dashboard: only GET / and /assets/*, so it never shadows the paths above or /api/v1.
  app.use(serveDashboard());

  // A signed zip_url downloads without an API key; without a token the request goes on to authentication.
  app.use(signedDownloadRoutes(deps.batchLinks).routes());
  // Likewise a webhook's signed image_url (format screenshotcenter).
  app.use(signedImageRoutes(deps.imageLinks).routes());
  // And a monitor.changed event's signed diff_url.
  app.use(signedDiffRoutes(deps.diffLinks).routes());

  const api = new Router<AppState>({ prefix: '/api/v1' });
  api.use(authenticate(deps.db, deps.jwt));
  api.use(impersonationAudit(deps.log));
  api.use(rateLimit(deps.rateLimiter));
  // POST /batch/create parses its own body (multipart, with the batch file's larger limit).
  const jsonBody = bodyParser({ json: true, multipart: false, urlencoded: true, jsonLimit: JSON_BODY_LIMIT, formLimit: JSON_BODY_LIMIT, textLimit: JSON_BODY_LIMIT });
  api.use((ctx, next) => (ctx.path === '/api/v1/batch/create' ? next() : jsonBody(ctx, next)));
  // Signup, login and the email/password flows are how a client gets a credential: they take none, and
  // are rate-limited per client address instead.
  const publicApi = new Router<AppState>({ prefix: '/api/v1' });
  publicApi.use(rateLimit(deps.rateLimiter, (ctx) => `address:${addressLimitKey(ctx.ip)}`), jsonBody);
  const publicAuth = publicAuthRoutes(buildAuthService(deps));
  publicApi.use(publicAuth.routes(), publicAuth.allowedMethods({ throw: true }));
  app.use(publicApi.routes());
  for (const routes of [sessionRoutes(deps.db, deps.jwt), keyRoutes(deps.db), adminUserRoutes({ db: deps.db, jwt: deps.jwt, config: deps.config, log: deps.log })]) {
    api.use(routes.routes(), routes.allowedMethods({ throw: true }));
  }
  const screenshots = screenshotRoutes({ service: deps.screenshots, db: deps.db, objects: deps.objects, events: deps.events, clientCompat: deps.config.clientCompat });
  const billing = deps.billing ?? createBilling(deps.db, deps.config.billing.plans, deps.log, undefined, deps.config.billing.offlinePayments);
  for (const routes of [billingRoutes(deps.db, billing, deps.log), dashboardRoutes(deps.db, billing.plans), adminOverviewRoutes(deps.db)]) {
    api.use(routes.routes(), routes.allowedMethods({ throw: true }));
  }
  for (const routes of [screenshots, accountRoutes(deps.db, billing.plans), deviceRoutes(), batchRoutes({ db: deps.db, batches: deps.batches, links: deps.batchLinks, maxFileBytes: deps.config.batch.maxFileBytes, clientCompat: deps.config.clientCompat }), crawlRoutes(deps.crawls), adminRoutes(deps.registry), appRoutes(deps.apps), monitorRoutes({ monitors: deps.monitors, diffLinks: deps.diffLinks, imageLinks: deps.imageLinks })]) {
    api.use(routes.routes(), routes.allowedMethods({ throw: true }));
  }
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: true }));
  caseSensitiveRoutes(app);
  return app;
}
