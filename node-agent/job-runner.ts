import type { CaptureOutput, CaptureSpec } from '../core/capture-spec.js';
import { isWithdrawn, type CaptureJob, type CaptureResult, type JobControl, type JobOutcome, type JobQueue } from '../core/contracts/job-queue.js';
import type { ObjectStore } from '../core/contracts/object-store.js';
import type { Logger } from '../core/logger.js';
import type { EgressGuard } from './egress/egress-guard.js';
import { captureGuarded } from './egress/guarded-capture.js';
import { afterFailure, captureVerdict } from './outcome.js';
import { storeOutputs } from './store-outputs.js';

/** Runs one capture with a pooled browser; the pools decide which browser process serves it. */
export type CaptureWithPool = (spec: CaptureSpec, signal: AbortSignal) => Promise<CaptureOutput>;

export interface JobRunnerOptions {
  nodeId: string;
  host: string;
  /** deadline of a capture whose request has no max_wait, seconds */
  captureTimeoutSeconds: number;
}

/**
 * Encoding a video or a PDF and storing outputs run after the page's deadline; a capture that has not
 * returned 60 s past its deadline is stuck (hung browser), and the job is retried on another browser.
 */
export const HARD_LIMIT_MARGIN_MS = 60_000;
/** Long captures tell the queue they are alive this often, well inside any ack deadline (30 s+). */
const WORKING_INTERVAL_MS = 10_000;

export interface RunStats {
  done: number;
  failures: number;
  lastError: string;
}

/**
 * The agent's job handler: capture → store the outputs → publish the result → ack. A browser crash,
 * a stuck browser or a storage/queue failure is retried (the queue redelivers with backoff and ends the
 * job with an error after its last attempt), except that a capture that used its whole deadline is
 * retried once at most and one the page itself ended (it stopped responding, it passed the memory ceiling)
 * is not retried (afterFailure); a page that cannot be reached is a terminal `error` result.
 */
export class JobRunner {
  readonly stats: RunStats = { done: 0, failures: 0, lastError: '' };

  constructor(
    private readonly capture: CaptureWithPool,
    private readonly queue: JobQueue,
    private readonly store: ObjectStore,
    private readonly opts: JobRunnerOptions,
    private readonly log: Logger,
    private readonly observe: (browser: string, seconds: number, outcome: string) => void = () => undefined,
    /** the SSRF guard every capture goes through; null when private targets are allowed */
    private readonly guard: EgressGuard | null = null,
  ) {}

  readonly handle = async (job: CaptureJob, ctl: JobControl): Promise<JobOutcome> => {
    const started = Date.now();
    const spec = job.spec;
    const deadlineMs = (spec.maxWait > 0 ? spec.maxWait : this.opts.captureTimeoutSeconds) * 1000;
    const hardLimit = AbortSignal.any([ctl.signal, AbortSignal.timeout(deadlineMs + HARD_LIMIT_MARGIN_MS)]);
    const alive = setInterval(() => ctl.working(), WORKING_INTERVAL_MS);
    // Every line about this job names the record and the HTTP request that created it.
    const log = this.log.child({ id: spec.id, request_id: job.requestId ?? '' });
    try {
      // The spec's own deadline is the driver's business (capture what is there when max_wait passes).
      // The route decided at dispatch: the capture goes through the country's proxy when there is one
      // (behind the egress guard, when the guard is on).
      const { output, pageFailure } = await captureGuarded(this.guard, spec, job.proxy ?? null, (s) => this.capture(s, hardLimit));
      // Withdrawn as the capture ended (its record deleted): nothing to store or report.
      if (isWithdrawn(ctl.signal)) return this.withdrawn(log, started);
      const captured = Date.now();
      // A page that was blocked or got no answer is an error (which costs nothing), said plainly.
      const verdict = captureVerdict(output, pageFailure);
      const files = verdict.status === 'finished' ? await storeOutputs(this.store, spec.id, output) : [];
      const stored = Date.now();
      const result: CaptureResult = {
        id: spec.id,
        status: verdict.status,
        error: verdict.status === 'error' ? verdict.error : '',
        ...(verdict.status === 'error' ? { errorCause: verdict.cause } : {}),
        files,
        finalUrl: output.finalUrl,
        finalUrls: output.finalUrls,
        responseCode: output.responseCode,
        links: output.links,
        trackers: output.trackers,
        userAgent: output.userAgent,
        browserInfo: output.browserInfo,
        warnings: output.warnings,
        blank: output.blank,
        ...(output.metadata ? { metadata: output.metadata } : {}),
        timings: { ...output.timings, queued: Math.max(0, started - job.enqueuedAt), capture: captured - started, store: stored - captured, total: Math.max(0, stored - job.enqueuedAt) },
        node: { id: this.opts.nodeId, host: this.opts.host },
        routing: job.egressCountry ? `agent:${job.egressCountry}` : job.proxy ? 'proxy' : 'any',
      };
      await this.queue.publishResult(result);
      this.stats.done += 1;
      const seconds = (Date.now() - started) / 1000;
      this.observe(spec.browser, seconds, verdict.status);
      // This attempt's end; the record's outcome is logged once, by the control plane when it applies the result.
      log.info({ attempt: ctl.attempt, browser: spec.browser, status: verdict.status, seconds }, 'capture attempt done; result published');
      return { kind: 'done' };
    } catch (err) {
      // The abort was the withdrawal (JobQueue.withdraw): not a failure of this node or of the page.
      if (isWithdrawn(ctl.signal)) return this.withdrawn(log, started);
      const outcome = afterFailure(err, Date.now() - started, deadlineMs, ctl.attempt);
      const reason = outcome.reason;
      this.stats.failures += 1;
      this.stats.lastError = reason;
      this.observe(spec.browser, (Date.now() - started) / 1000, outcome.kind);
      log.warn({ attempt: ctl.attempt, browser: spec.browser, reason, outcome: outcome.kind }, outcome.kind === 'retry' ? 'capture failed; the queue will retry it' : 'capture failed for good');
      return outcome;
    } finally {
      clearInterval(alive);
    }
  };

  /** A job withdrawn while it ran: the capture was aborted (its page closed), the queue drops the job. */
  private withdrawn(log: Logger, started: number): JobOutcome {
    log.info({ seconds: (Date.now() - started) / 1000 }, 'capture abandoned: its record was deleted');
    return { kind: 'done' };
  }
}
