import type { AppsConfig } from '../../core/config/config.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import { toScreenshotRecord } from '../screenshots/screenshot-record.js';
import { appFilename } from '../../plugins/app-filename.js';
import type { AppEgress, AppEventType, AppLogger, AppOutput, AppPlugin, ScreenshotRecordData } from '../../plugins/contract.js';
import { checkSettings } from '../../plugins/check-settings.js';
import type { AppRegistry } from '../../plugins/registry.js';
import type { ImageLinks } from '../retrieval/image-links.js';
import type { ScreenshotStore } from '../screenshots/screenshot-store.js';
import type { AppEventEmitter } from './app-event-emitter.js';
import { screenshotAppFiles } from './app-files.js';
import { AppJobQueue, type AppJobTable, type ClaimedJob } from './app-job-queue.js';
import type { AppSettingsCodec } from './app-settings-codec.js';
import type { BatchHosting } from './batch-hosting.js';
import { retryDelaySeconds } from './retry-delay.js';

/**
 * How often the runner looks for due jobs when nothing wakes it: it picks up retries that came due and
 * jobs queued by another control plane within a second. Jobs queued here wake it at once.
 */
const POLL_MS = 1000;
/** The shortest wait between two looks, so that a job another control plane is claiming is not asked for in a tight loop. */
const MIN_WAIT_MS = 10;
/** A claimed job's lease outlives its timeout by this much, so a slow but live run is not taken over. */
const LEASE_MARGIN_SECONDS = 30;

/** Why a job failed, and whether another attempt may succeed (duck-typed: external plugins may bundle their own AppRunError). */
function failureOf(err: unknown): { message: string; retryable: boolean } {
  const e = err as { name?: unknown; message?: unknown; retryable?: unknown };
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : String(err);
  if (e?.name === 'AppRunError' && typeof e.retryable === 'boolean') return { message, retryable: e.retryable };
  if (e?.name === 'TimeoutError') return { message: 'the app took longer than SHOTFARM_APP_TIMEOUT_SECONDS', retryable: true };
  return { message, retryable: true };
}

/** Thrown for runs that cannot happen at all (the type is not installed, the settings no longer parse). */
class NotRunnable extends Error {}

/**
 * Executes app runs (after screenshots) and event deliveries from the database queues, at most
 * `concurrency` at once, each with a timeout; failures are retried with exponential backoff up to
 * `maxAttempts`, then end as `error` with the reason on the record. A run never touches its screenshot.
 */
export class AppRunner {
  private readonly jobs: AppJobQueue;
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private wakeUp: () => void = () => undefined;
  private loopDone: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      objects: ObjectStore;
      registry: AppRegistry;
      codec: AppSettingsCodec;
      emitter: AppEventEmitter;
      screenshots: ScreenshotStore;
      imageLinks: ImageLinks;
      config: AppsConfig;
      egress: AppEgress;
      /** the settings of configurations the service made for itself (a batch's hosting), resolved per run */
      hosting: Pick<BatchHosting, 'resolve'>;
      log: Logger;
    },
  ) {
    this.jobs = new AppJobQueue(deps.db);
    deps.emitter.onQueued(() => this.wake());
  }

  start(): void {
    this.loopDone ??= this.loop();
  }

  /** Something was queued: look now rather than at the next poll. */
  wake(): void {
    this.wakeUp();
  }

  /** Stops claiming, aborts running jobs and gives them back to the queue (their attempt does not count). */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('the service is stopping'));
    this.wakeUp();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
  }

  private async loop(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      let claimed = 0;
      try {
        claimed = await this.claimAndStart();
      } catch (err) {
        this.deps.log.warn({ err }, 'app runner could not claim jobs (will retry)');
      }
      // A full claim means more may be due: look again as soon as a slot frees (a finishing job wakes us).
      const free = this.deps.config.concurrency - this.inFlight.size;
      if (claimed > 0 && free > 0) continue;
      await this.sleepUntilDue();
    }
  }

  /**
   * Waits until a job is due or something wakes the runner (a job queued or finished in this process, the
   * stop). While nothing is due it looks once per POLL_MS with ONE cheap statement (when the next job is
   * due), instead of trying both claims (two UPDATEs) and asking for that time per table (two more): idle,
   * the claims were 4 statements a second, as much work for the embedded database as a capture's records.
   */
  private async sleepUntilDue(): Promise<void> {
    // The claim has just run: nothing is due now (or another control plane is claiming it); look again shortly.
    let wait = MIN_WAIT_MS;
    while (!this.stopping.signal.aborted) {
      if (await this.sleep(wait)) return;
      // No free slot: a finishing job wakes the runner; until then there is nothing to claim.
      if (this.inFlight.size >= this.deps.config.concurrency) {
        wait = POLL_MS;
        continue;
      }
      const next = await this.jobs.msToNextDue().catch(() => null);
      if (next === 0) return;
      wait = Math.min(POLL_MS, Math.max(MIN_WAIT_MS, next ?? POLL_MS));
    }
  }

  /** Sleeps `ms`; true when woken before that (wake(), a job finished, stop()). */
  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  private async claimAndStart(): Promise<number> {
    const lease = this.deps.config.timeoutSeconds + LEASE_MARGIN_SECONDS;
    let claimed = 0;
    for (const table of ['app_runs', 'app_events'] as AppJobTable[]) {
      const free = this.deps.config.concurrency - this.inFlight.size;
      if (free <= 0 || this.stopping.signal.aborted) break;
      for (const job of await this.jobs.claim(table, free, lease)) {
        claimed++;
        const running: Promise<void> = this.execute(job)
          .catch((err: unknown) => this.deps.log.error({ err, job: job.id, table }, 'app job failed unexpectedly'))
          .finally(() => {
            this.inFlight.delete(running);
            this.wakeUp();
          });
        this.inFlight.add(running);
      }
    }
    return claimed;
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const config = await this.deps.db('app_configs').where({ id: job.appConfigId }).first('id', 'company_id', 'app_id', 'type', 'settings', 'hidden');
    // The configuration was deleted meanwhile: its jobs were deleted with it (cascade); nothing to record.
    if (!config) return;
    const log = this.deps.log.child({ app_type: config.type, app_config_id: job.appConfigId, [job.table === 'app_runs' ? 'app_run_id' : 'app_event_id']: job.id });
    const signal = AbortSignal.any([AbortSignal.timeout(this.deps.config.timeoutSeconds * 1000), this.stopping.signal]);
    const plugin = this.deps.registry.get(config.type);
    try {
      if (!plugin) throw new NotRunnable(`the app type "${config.type}" is not installed on this service`);
      const hosted = await this.deps.hosting.resolve(config);
      const checked = checkSettings(plugin, hosted?.settings ?? this.openSettings(config.type, config.settings));
      if (!checked.ok)
        throw new NotRunnable(`the app's settings are no longer valid for ${config.type}: ${checked.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ')}; update them`);
      const base = { settings: checked.settings, signal, log: appLogger(log), egress: hosted?.egress ?? this.deps.egress, attempt: job.attempts };
      let output: AppOutput;
      if (job.table === 'app_runs') {
        const screenshot = await this.screenshotOf(job);
        if (screenshot.status === 'error' && !plugin.runsOnError) throw new NotRunnable(`not run: the screenshot failed (${screenshot.error ?? 'no reason given'}), so there was nothing to send`);
        const files = await screenshotAppFiles(this.deps.db, this.deps.objects, job.row.screenshot_id as number);
        const hasImage = files.list().some((f) => f.kind === 'image');
        output = await plugin.run({
          ...base,
          screenshot,
          files,
          filename: (file, template) => appFilename(screenshot, file, String(job.row.filename ?? ''), template),
          imageUrl: () => (hasImage ? this.deps.imageLinks.url(screenshot.id) : null),
        });
      } else {
        if (!plugin.deliver) throw new NotRunnable(`the app type "${config.type}" does not receive events`);
        const event = { id: String(job.row.message_id), type: job.row.type as AppEventType, timestamp: new Date(job.row.created_at as string), data: job.row.payload as Record<string, unknown> };
        // app.upload.* events carry the screenshot record (written by the service, not by a client).
        const screenshotId = event.type.startsWith('app.upload.') ? Number(event.data.id) : NaN;
        output = await plugin.deliver({ ...base, event, imageUrl: () => (Number.isSafeInteger(screenshotId) && screenshotId > 0 ? this.deps.imageLinks.url(screenshotId) : null) });
      }
      signal.throwIfAborted();
      if (await this.jobs.finish(job, output)) await this.afterUpload(job, plugin, 'finished');
      log.info({ attempt: job.attempts }, 'app job finished');
    } catch (err) {
      await this.recordFailure(job, plugin, err, log, signal);
    }
  }

  private async recordFailure(job: ClaimedJob, plugin: AppPlugin | undefined, err: unknown, log: Logger, signal: AbortSignal): Promise<void> {
    if (this.stopping.signal.aborted) {
      await this.jobs.release(job);
      return;
    }
    const failure = err instanceof NotRunnable ? { message: err.message, retryable: false } : failureOf(signal.aborted ? (signal.reason ?? err) : err);
    const last = !failure.retryable || job.attempts >= this.deps.config.maxAttempts;
    if (last) {
      const message = failure.retryable ? `${failure.message} (gave up after ${job.attempts} attempts)` : failure.message;
      log.warn({ attempt: job.attempts, error: failure.message }, 'app job failed');
      if ((await this.jobs.fail(job, message)) && plugin) await this.afterUpload(job, plugin, 'failed');
      return;
    }
    const delay = retryDelaySeconds(this.deps.config.retrySeconds, job.attempts);
    log.info({ attempt: job.attempts, error: failure.message, retry_in_s: delay }, 'app job will be retried');
    await this.jobs.retryLater(job, failure.message, delay);
  }

  /** An upload app's run ended for good: the event-receiving apps of the same screenshot hear about it. */
  private async afterUpload(job: ClaimedJob, plugin: AppPlugin, outcome: 'finished' | 'failed'): Promise<void> {
    if (job.table !== 'app_runs' || !plugin.uploads) return;
    const screenshotId = Number(job.row.screenshot_id);
    const configIds = (await this.deps.emitter.configsOfScreenshots({ id: screenshotId })).filter((id) => id !== job.appConfigId);
    if (configIds.length === 0) return;
    const record = await this.screenshotOf(job);
    await this.deps.emitter.emit(job.companyId, configIds, { type: `app.upload.${outcome}`, messageId: `msg_app_upload_${outcome}_${job.id}`, data: record });
  }

  private async screenshotOf(job: ClaimedJob): Promise<ScreenshotRecordData> {
    const row = await this.deps.screenshots.get(job.companyId, Number(job.row.screenshot_id));
    if (!row) throw new NotRunnable('the screenshot no longer exists');
    return toScreenshotRecord(row) as ScreenshotRecordData;
  }

  private openSettings(type: string, stored: Record<string, unknown>): Record<string, unknown> {
    try {
      return this.deps.codec.open(type, stored);
    } catch (err) {
      throw new NotRunnable((err as Error).message);
    }
  }
}

function appLogger(log: Logger): AppLogger {
  return {
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}
