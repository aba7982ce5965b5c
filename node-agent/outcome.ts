import type { CaptureOutput } from '../core/capture-spec.js';
import type { JobOutcome } from '../core/contracts/job-queue.js';
import type { ErrorCause } from '../core/error-cause.js';
import { errorText } from '../drivers/shared/error-text.js';
import { PageFault } from '../drivers/shared/page-fault.js';
import type { PageFailure } from './page-failure.js';

const UNREACHED = 'The page could not be reached';

export type CaptureVerdict = { status: 'finished' } | { status: 'error'; error: string; cause: ErrorCause };

/**
 * Whether a capture produced a record worth keeping. A page that could not be reached (no HTTP answer),
 * that failed a condition of the request or gave no image ends as `error`, which costs nothing; an HTTP error page (404, 500) is still a
 * faithful screenshot of what the site answered, so it is `finished` with its response_code.
 * `pageFailure` is why there was no page, when the guard or the browser said (guarded-capture.ts).
 */
export function captureVerdict(output: CaptureOutput, pageFailure: PageFailure | null = null): CaptureVerdict {
  if (pageFailure) return { status: 'error', error: pageFailure.error, cause: pageFailure.cause };
  if (output.responseCode === null) {
    const why = output.warnings.find((w) => /reach|resolve|refused|navigat|timed out|blocked|ERR_/i.test(w)) ?? output.warnings[0] ?? 'no response';
    // The driver's own warning may already say it ("The page could not be reached: …"): say it once.
    return { status: 'error', error: why.startsWith(UNREACHED) ? why : `${UNREACHED}: ${why}`, cause: 'unreachable' };
  }
  // A condition of the request the page failed (fail_on_status, fail_if_selector...): its sentence, cost 0.
  if (output.conditionFailed) return { status: 'error', error: output.conditionFailed, cause: 'condition_failed' };
  if (output.images.length === 0) return { status: 'error', error: `No image could be captured: ${output.warnings[0] ?? 'unknown reason'}`, cause: 'no_image' };
  return { status: 'finished' };
}

/**
 * Deliveries of one job that may each use the whole deadline. A capture that fails quickly (a browser
 * crash, a storage error) is retried up to SHOTFARM_MAX_DELIVERIES times, as the fault is rarely the
 * page's. One that failed only after using its whole deadline (a hung browser) would very likely do the
 * same again, and each try holds a capture slot for the whole deadline: it gets one more delivery, and
 * only if it was the first. So a record spends at most 2 × (deadline + the pipeline's margin) capturing,
 * plus the retry backoff and any quick failures.
 */
export const DEADLINE_LONG_ATTEMPTS = 2;

/**
 * What a failed capture becomes: the record's plain error at once when the page itself was the fault
 * (a PageFault: it stopped responding, it passed the memory ceiling; the same page on the same terms does
 * it again, so a retry only holds a slot for another deadline: a busy-loop page with max_wait 60 took
 * 128.5 s over two attempts here (134–142 s in issue 25), and ends in 63.2 s in one), else a retry, or after its deadline-long
 * attempts the record's plain error.
 */
export function afterFailure(error: unknown, elapsedMs: number, deadlineMs: number, attempt: number): Exclude<JobOutcome, { kind: 'done' }> {
  if (error instanceof PageFault) return { kind: 'fail', reason: error.message, cause: error.errorCause };
  const reason = errorText(error);
  if (elapsedMs < deadlineMs) return { kind: 'retry', reason };
  if (attempt < DEADLINE_LONG_ATTEMPTS) return { kind: 'retry', reason: `${reason} (after the whole max_wait of ${deadlineMs / 1000} s)` };
  return { kind: 'fail', reason: `${reason} (after the whole max_wait of ${deadlineMs / 1000} s, on ${attempt} attempts)` };
}
