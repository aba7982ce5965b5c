import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../core/config/config.js';
import { migrateLatest } from './db/migrate.js';
import { TOKENS } from '../core/di/tokens.js';
import { createLogger, type Logger } from '../core/logger.js';
import { ensureBootstrapKey, resolveJwtSecret } from './accounts/bootstrap.js';
import { JwtService } from './accounts/jwt.js';
import { ApiKeyCache } from './auth/key-cache.js';
import { buildApp } from './app.js';
import { createHttpServer } from './http/http-server.js';
import { createRateLimiter } from './http/rate-limit.js';
import { ScreenshotService } from './screenshots/screenshot-service.js';
import { ScreenshotRecords } from './screenshots/screenshot-records.js';
import { ScreenshotStore } from './screenshots/screenshot-store.js';
import { Admission } from '../grid/scheduling/admission.js';
import { FarmMetrics } from '../core/metrics/farm-metrics.js';
import { appRunCounts } from './apps/app-run-counts.js';
import { FarmDispatcher } from './farm/farm-dispatcher.js';
import { requeueInterrupted } from './farm/requeue-interrupted.js';
import { ResultRecorder } from './farm/result-recorder.js';
import { ScreenshotEvents } from './screenshots/screenshot-events.js';
import { CrawlService } from './crawls/crawl-service.js';
import { createHash } from 'node:crypto';
import { BatchLinks } from './batches/batch-links.js';
import { ImageLinks } from './retrieval/image-links.js';
import { BatchService } from './batches/batch-service.js';
import { createBilling, type Billing } from './billing/billing.js';
import { RenewalScheduler } from './billing/renewal-scheduler.js';
import { toBatchRecord } from './batches/batch-record.js';
import { toCrawlRecord } from './crawls/crawl-record.js';
import { loadAppPlugins } from '../plugins/load-plugins.js';
import { createAppServices } from './apps/app-services.js';
import { DiffLinks } from './monitors/diff-links.js';
import { MonitorComparer } from './monitors/monitor-comparer.js';
import { MonitorScheduler } from './monitors/monitor-scheduler.js';
import { MonitorService } from './monitors/monitor-service.js';
import { startOperatorEndpoint } from './admin/operator-endpoint.js';

export interface ControlPlane {
  container: DependencyContainer;
  recorder: ResultRecorder;
  /** the one writer of screenshot records */
  records: ScreenshotRecords;
  /** tells in-process waiters that a screenshot ended (tests see their waiters in place) */
  events: ScreenshotEvents;
  url: string;
  bootstrapKey: string | null;
  billing: Billing;
  /** the monitor schedule (tests poll it by hand) */
  monitorSchedule: MonitorScheduler;
  stop(): Promise<void>;
}

export interface ControlPlaneOptions {
  /** generate and keep a bootstrap key in the data dir when none is configured (embedded mode) */
  generateBootstrapKey: boolean;
  /**
   * The adapters the configuration chose (core/di/adapters.ts: queue, registry, object store, payment
   * provider, mailer) and the database, opened by the root, which closes them after stop().
   */
  container: DependencyContainer;
  logger?: Logger;
  /** the process's metrics when it already has them (embedded mode: the agent records into the same registry) */
  metrics?: FarmMetrics;
  /**
   * on the embedded database, take the operator's commands (`shotfarm users create`…) on a loopback
   * endpoint (api/admin/operator-endpoint.ts): this process holds the database, no other may open it
   */
  operatorEndpoint?: boolean;
}

/**
 * Starts the control plane: database (migrated), accounts, services and the HTTP server, in that
 * order; stop() closes them in reverse.
 */
export async function startControlPlane(configured: Config, opts: ControlPlaneOptions): Promise<ControlPlane> {
  // Plugins first: a broken plugin list stops the start before anything listens.
  const plugins = await loadAppPlugins({ external: configured.apps.plugins, endpoints: configured.apps.endpoints });
  // Bind first: with PORT=0 (tests) the port, and so the public URL links are built from, is known only now.
  // Requests that arrive before the services are ready get a 503.
  let handler: RequestListener = (_req, res) => void res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"success":false,"error":"Starting","code":"SERVICE_UNAVAILABLE","details":{}}');
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHttpServer((req, res) => handler(req, res)).listen(configured.port, configured.host, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${configured.host === '0.0.0.0' || configured.host === '::' ? 'localhost' : configured.host}:${port}`;
  const config: Config = configured.publicUrlConfigured ? configured : { ...configured, publicUrl: url };

  const c = opts.container;
  const log = opts.logger ?? createLogger(config.logLevel);
  const db = c.resolve(TOKENS.Db);
  const queue = c.resolve(TOKENS.JobQueue);
  const registry = c.resolve(TOKENS.NodeRegistry);
  const objects = c.resolve(TOKENS.ObjectStore);
  await migrateLatest(db);
  const bootstrapKey = await ensureBootstrapKey(db, config, { generate: opts.generateBootstrapKey });
  const rateLimiter = await createRateLimiter(config.rateLimitPerMinute, config.databaseUrl ? db : null);

  const jwt = new JwtService(resolveJwtSecret(config), config.auth.jwtTtlSeconds);
  const store = new ScreenshotStore(db);
  // Endings reach the waiters of every replica through the queue (plain NATS when distributed).
  const events = new ScreenshotEvents(queue);
  // The one writer of screenshot records: every way a record ends goes through it.
  const records = new ScreenshotRecords(db, store, objects, events, log);
  const metrics = opts.metrics ?? new FarmMetrics();
  // Every ending of a record counts once, by its result or without one (cancelled, never queued); a
  // redelivered result (duplicate) or one whose record is gone (orphan) ends no screenshot.
  records.onEnded((status, count) => metrics.results.inc({ status }, count));
  const countStatement = (): void => void metrics.dbStatements.inc();
  db.on('query', countStatement);
  // Its catch-up statements on its own connection count too.
  const apiKeys = await ApiKeyCache.start(db, config.databaseUrl, log, { onStatement: countStatement });
  const dispatcher = new FarmDispatcher(queue, new Admission(queue, registry, config.farm.maxBacklog), config.farm.proxies, records, log);
  const screenshots = new ScreenshotService(db, store, records, config, dispatcher);
  const recorder = new ResultRecorder(records, log);
  // One secret signs every link that works without an API key (a batch's zip_url, a webhook's image_url).
  const linkSecret = createHash('sha256')
    .update(`zip-links:${resolveJwtSecret(config)}`)
    .digest('hex');
  const imageLinks = new ImageLinks(db, objects, linkSecret, config.publicUrl, config.imageUrlTtlSeconds);
  const apps = createAppServices({ registry: plugins, db, objects, config, screenshots: store, imageLinks, log });
  // A screenshot that ended has its app runs queued: start them now rather than at the runner's next poll.
  records.onAppRunsQueued(() => apps.runner.wake());
  const batches = new BatchService(db, screenshots, records, queue, config, apps.hosting);
  recorder.onApplied(async (done) => {
    if (done.batchId !== null) await batches.onScreenshotDone(done.batchId, done.status === 'finished');
  });
  const batchLinks = new BatchLinks(db, objects, linkSecret, config.publicUrl, config.batch.zipUrlTtlSeconds, log);
  batches.onFinished(async (batch) => {
    const configIds = await apps.emitter.configsOfScreenshots({ batch_id: batch.id });
    await apps.emitter
      .emit(Number(batch.company_id), configIds, { type: 'batch.finished', messageId: `msg_batch_finished_${batch.id}`, data: toBatchRecord(batch, batchLinks.zipUrl(batch)) })
      .catch((err: unknown) => log.error({ err, batchId: batch.id }, 'could not queue batch.finished'));
  });
  const crawls = new CrawlService(db, screenshots, queue, records, config, log);
  crawls.onFinished(async (crawl) => {
    const configIds = await apps.emitter.configsOfScreenshots({ crawl_id: crawl.id });
    await apps.emitter.emit(Number(crawl.company_id), configIds, { type: 'crawl.finished', messageId: `msg_crawl_finished_${crawl.id}`, data: toCrawlRecord(crawl) });
  });
  recorder.onApplied(crawls.onResult);
  // Page monitors: every replica polls the schedule (runs are claimed in the database); the replica that
  // records a run's result compares it with the previous shot.
  const diffLinks = new DiffLinks(db, objects, linkSecret, config.publicUrl, config.imageUrlTtlSeconds);
  const monitors = new MonitorService(db, screenshots, config, log);
  const comparer = new MonitorComparer({ db, objects, records, emitter: apps.emitter, registry: plugins, imageLinks, diffLinks, log });
  recorder.onApplied(async (done) => {
    if (done.monitorId !== null) comparer.onEnded(done.id);
  });
  const monitorSchedule = new MonitorScheduler(db, monitors, comparer, config.monitors.pollMs, log);
  apps.runner.start();
  // In the background: the API answers meanwhile, and a crawl that cannot advance logs why.
  void crawls.resume().catch((err: unknown) => log.error({ err }, 'could not resume interrupted crawls'));
  metrics.watch({ queueDepth: () => queue.depth(), queueAges: () => queue.oldestWaiting(), nodes: () => registry.list(), agentSlots: config.agent.slots, appRuns: () => appRunCounts(db) });
  const results = queue.onResult(async (result) => {
    await recorder.apply(result);
  });
  // Embedded mode's queue died with the previous process; what it held is queued again before anything new.
  if (queue.kind === 'memory') await requeueInterrupted(db, dispatcher, config.farm.proxies, log);

  const billing = createBilling(db, config.billing.plans, log, c.resolve(TOKENS.PaymentProvider), config.billing.offlinePayments);
  const renewals = new RenewalScheduler(billing.renewal, config.billing.renewalSeconds, log);
  renewals.start();
  monitorSchedule.start();

  const app = buildApp({
    config,
    db,
    log,
    jwt,
    apiKeys,
    rateLimiter,
    mailer: c.resolve(TOKENS.Mailer),
    screenshots,
    objects,
    events,
    registry,
    queue,
    metrics,
    batches,
    batchLinks,
    imageLinks,
    crawls,
    billing,
    apps,
    monitors,
    diffLinks,
    readiness: [
      { name: 'queue', check: () => queue.reachable() },
      { name: 'storage', check: () => objects.reachable() },
    ],
  });
  // Koa's callback settles its own errors (they become the error envelope), so nothing awaits its promise.
  const callback = app.callback();
  handler = (req, res) => void callback(req, res);
  const operator = opts.operatorEndpoint && config.databaseUrl === null ? await startOperatorEndpoint({ db, config, serviceUrl: url, log }) : null;
  log.info({ url, operator: operator?.url }, 'control plane listening');

  return {
    container: c,
    recorder,
    records,
    events,
    url,
    bootstrapKey,
    billing,
    monitorSchedule,
    async stop() {
      await operator?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await results.drain();
      await monitorSchedule.stop();
      await renewals.stop();
      await apps.runner.stop();
      db.off('query', countStatement);
      await apiKeys.stop();
      events.close();
    },
  };
}
