import type { CaptureJob, CaptureResult } from '../../core/contracts/job-queue.js';
import type { ErrorCause } from '../../core/error-cause.js';

/** How a job was routed, in the record's words: `proxy:fr`, `agent:fr` or `any`. */
export function routingOf(job: CaptureJob): string {
  if (job.egressCountry === null) return 'any';
  return `${job.proxy ? 'proxy' : 'agent'}:${job.egressCountry.toLowerCase()}`;
}

/**
 * The `error` result the queue publishes itself when a job fails for good or runs out of deliveries,
 * so the recorder closes the record even though no agent reported on it. `cause` is the handler's when it
 * knew why (a page that stopped responding), else capture_failed.
 */
export function giveUpResult(job: CaptureJob, error: string, node: { id: string; host: string }, cause: ErrorCause = 'capture_failed'): CaptureResult {
  return {
    id: job.spec.id,
    status: 'error',
    error,
    errorCause: cause,
    files: [],
    finalUrl: '',
    finalUrls: [],
    responseCode: null,
    links: [],
    trackers: [],
    userAgent: '',
    browserInfo: '',
    warnings: [],
    timings: { total: Math.max(0, Date.now() - job.enqueuedAt) },
    node: { ...node },
    routing: routingOf(job),
  };
}
