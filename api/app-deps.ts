import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../core/config/config.js';
import type { JobQueue } from '../core/contracts/job-queue.js';
import type { Mailer } from '../core/contracts/mailer.js';
import type { NodeRegistry } from '../core/contracts/node-registry.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import type { Logger } from '../core/logger.js';
import type { FarmMetrics } from '../core/metrics/farm-metrics.js';
import type { JwtService } from './accounts/jwt.js';
import type { ApiKeyCache } from './auth/key-cache.js';
import type { AppServices } from './apps/app-services.js';
import type { AuthService } from './auth/auth-service.js';
import type { SigningSecrets } from './accounts/signing-secrets.js';
import type { Caller } from './http/state.js';
import type { BatchLinks } from './batches/batch-links.js';
import type { BatchService } from './batches/batch-service.js';
import type { Billing } from './billing/billing.js';
import type { CrawlService } from './crawls/crawl-service.js';
import type { Db } from './db/connect.js';
import type { DiffLinks } from './monitors/diff-links.js';
import type { MonitorService } from './monitors/monitor-service.js';
import type { ImageLinks } from './retrieval/image-links.js';
import type { ScreenshotEvents } from './screenshots/screenshot-events.js';
import type { ScreenshotService } from './screenshots/screenshot-service.js';

/**
 * What the control plane's HTTP application is built from (AppDeps, set by the composition root, api/control-plane.ts)
 * and what every route handler is given (RouteDeps): the one bag of services the features reach each other
 * through. Types only: the route descriptors (api/http/route.ts) name it without importing the application.
 */

/** A named readiness check: the database, the queue, the storage. */
export type ReadinessCheck = { name: string; check: () => Promise<boolean> };

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  jwt: JwtService;
  /** the API-key look-up cache (auth/key-cache.ts); absent in tests that build the app alone: every request asks the database */
  apiKeys?: ApiKeyCache;
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

/** Everything a handler may use: the application's dependencies and the services built from them once. */
export interface RouteDeps extends AppDeps {
  billing: Billing;
  auth: AuthService;
  /** openapi.json, built once from the route table */
  openApiDocument: Record<string, unknown>;
  /** API keys' signing secrets (create, rotate, sign for the dashboard) */
  signingSecrets: SigningSecrets;
  /** the verifier of signed render links, for routes with `signedAccess` (api/http/mount-routes.ts) */
  signedLinks: { isSigned(rawQuery: string): boolean; verify(rawQuery: string): Promise<{ caller: Caller; query: string }> };
}
